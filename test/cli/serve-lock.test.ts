import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirectoryLockedError, lockDataDirectory } from '../../src/store/sqlite/lock.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const ACCOUNT = `AC${'c'.repeat(32)}`;
const TOKEN = 'lock-test-token';
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-lock-'));
  dirs.push(d);
  return d;
}

/** Runs `rcml serve`; resolves once it listens, or with its exit when it stops first. */
function serve(
  data: string,
): Promise<{ url?: string; code?: number | null; err: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      'serve',
      '--port',
      '0',
      '--clock',
      'virtual',
      '--data',
      data,
      '--account-sid',
      ACCOUNT,
      '--auth-token',
      TOKEN,
    ],
    { env: { ...process.env, RCML_DRAIN_SECONDS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && /account sid: AC/.test(out)) resolve({ url, err, child });
    });
    child.on('exit', (code) => resolve({ code, err, child }));
  });
}

const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

describe('one owner per data directory', () => {
  it('refuses a second rcml serve on the same directory with exit 2, naming it and the holder, touching nothing', async () => {
    const data = tempDir();
    const first = await serve(data);
    expect(first.url).toBeDefined();
    const auth = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
    // A live call of the first server (the virtual clock never moves here).
    const created = await fetch(`${first.url}/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'From=%2B1&To=%2B2&Url=http%3A%2F%2F127.0.0.1%3A9%2F',
    });
    const { sid } = (await created.json()) as { sid: string };

    const second = await serve(data);
    expect(second.url).toBeUndefined();
    expect(second.code).toBe(2);
    expect(second.err).toContain(
      `data directory ${data} is in use by another process (pid ${first.child.pid})`,
    );

    // The first server's call is still live, in its database and on the server.
    const db = new Database(join(data, 'rcml.sqlite'), { readonly: true });
    const status = db.prepare('SELECT status FROM calls WHERE sid = ?').pluck().get(sid);
    db.close();
    expect(status).toBe('queued');
    const read = await fetch(`${first.url}/platform/2012-04-24/Accounts/${ACCOUNT}/Calls/${sid}.json`, {
      headers: { Authorization: auth },
    });
    expect(((await read.json()) as { status: string }).status).toBe('queued');

    await stop(first.child);
    // Released on stop: the next start owns the directory and closes the call left live.
    const third = await serve(data);
    expect(third.url).toBeDefined();
    await stop(third.child);
  });

  it('is refused in process while held, and free again once released', () => {
    const data = tempDir();
    const lock = lockDataDirectory(data);
    expect(() => lockDataDirectory(data)).toThrow(DataDirectoryLockedError);
    try {
      lockDataDirectory(data);
    } catch (err) {
      expect((err as DataDirectoryLockedError).holderPid).toBe(process.pid);
    }
    lock.release();
    lockDataDirectory(data).release();
  });
});
