/**
 * A `redis-server` of a test's own on a free port of 127.0.0.1, without persistence, so a test
 * can restart it empty, freeze it (SIGSTOP) or kill it. `stop` is pushed to `cleanups`; tests
 * skip when the binary is absent (see {@link hasRedisServer}).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { exitOf } from './serve-process.js';

/** Whether `redis-server` can be run here. */
export const hasRedisServer = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A free TCP port of 127.0.0.1 (closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface OwnRedis {
  url: string;
  /** Kills it (SIGKILL) and starts it again on the same port, empty. */
  restartEmpty(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing is answered. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  stop(): Promise<void>;
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
}

export async function startOwnRedis(cleanups: Array<() => Promise<void>>): Promise<OwnRedis> {
  const port = await freePort();
  let child = await launch(port);
  const kill = async () => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exitOf(child);
  };
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    restartEmpty: async () => {
      await kill();
      child = await launch(port);
    },
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    stop: kill,
  };
  cleanups.push(own.stop);
  return own;
}
