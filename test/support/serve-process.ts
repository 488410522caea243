/**
 * `rcml serve` as a child process, for tests that need the real command: started on a free
 * port of 127.0.0.1 and ready once it printed where it listens and its account.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Standard output so far (the banner: account, token, egress policy...). */
  out(): string;
  /** Standard error so far. */
  err(): string;
}

/**
 * Runs `rcml serve --port 0 ...args` (environment: the test's, plus `env`); resolves once it
 * listens, rejects with its standard error when it exits first.
 */
export function startServeProcess(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (https?:\/\/\S+)/.exec(out)?.[1];
      if (url && /account sid: AC/.test(out)) resolve({ url, child, out: () => out, err: () => err });
    });
    child.once('exit', (code, signal) => reject(new Error(`rcml serve exited ${code ?? signal}: ${err}`)));
  });
}

/** Resolves once `child` has exited (at once when it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}
