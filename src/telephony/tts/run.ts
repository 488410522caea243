import { spawn } from 'node:child_process';

/**
 * Runs a command asynchronously with `input` on its stdin; resolves with its stdout. Output
 * past `maxBytes` or a run past `timeoutMs` kills it (a runaway synthesis cannot fill memory).
 */
export function run(
  command: string,
  args: readonly string[],
  input: Buffer | string,
  limits: { maxBytes: number; timeoutMs: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failed: Error | undefined;
    const timer = setTimeout(() => {
      failed = new Error(`${command} took longer than ${limits.timeoutMs} ms`);
      child.kill('SIGKILL');
    }, limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) {
        failed = new Error(`${command} wrote more than ${limits.maxBytes} bytes`);
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString();
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failed) reject(failed);
      else if (code !== 0)
        reject(new Error(`${command} exited with ${code}: ${stderr.trim().slice(0, 300)}`));
      else resolve(Buffer.concat(chunks));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
