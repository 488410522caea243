import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts `rcml serve` and resolves with what it printed once it listens. */
function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; out: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && /account sid: AC/.test(out)) resolve({ url, out, child });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

describe('rcml serve', () => {
  it('creates an account on first start, prints it, and serves the API', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-serve-'));
    dirs.push(data);
    const first = await serve(['--data', data, '--clock', 'virtual']);
    const sid = /account sid: (AC[0-9a-f]{32})/.exec(first.out)?.[1] as string;
    const token = /auth token: ([0-9a-f]{32})/.exec(first.out)?.[1] as string;
    expect(sid).toBeDefined();
    expect(token).toBeDefined();
    const auth = { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
    const res = await fetch(`${first.url}/platform/2012-04-24/Accounts/${sid}/Calls.json`, { headers: auth });
    expect(res.status).toBe(200);
    const create = await fetch(`${first.url}/platform/2012-04-24/Accounts/${sid}/Calls.json`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'From=%2B1&To=%2B2&Url=http%3A%2F%2F127.0.0.1%3A9%2F',
    });
    expect(create.status).toBe(501);
    await stop(first.child);
    const second = await serve(['--data', data]);
    expect(second.out).toContain(`account sid: ${sid}`);
    expect(second.out).not.toContain('auth token');
    await stop(second.child);
  });

  it('takes the account from the environment', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-serve-'));
    dirs.push(data);
    const sid = `AC${'e'.repeat(32)}`;
    const { url, child } = await serve(['--data', data], {
      RCML_ACCOUNT_SID: sid,
      RCML_AUTH_TOKEN: 'env-token-1',
    });
    const auth = { Authorization: `Basic ${Buffer.from(`${sid}:env-token-1`).toString('base64')}` };
    expect((await fetch(`${url}/2012-04-24/Accounts/${sid}/Recordings.json`, { headers: auth })).status).toBe(
      200,
    );
    await stop(child);
  });

  it('refuses bad options as usage errors (exit 2), naming the option', async () => {
    for (const [args, option] of [
      [['--clock', 'sundial'], '--clock'],
      [['--port', 'http'], '--port'],
      [['--base-url', 'nope'], '--base-url'],
    ] as const) {
      const program = createProgram();
      for (const command of [program, ...program.commands]) {
        command.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
      }
      const err = await program.parseAsync(['serve', ...args], { from: 'user' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CommanderError);
      expect((err as CommanderError).exitCode).not.toBe(0);
      expect((err as CommanderError).message).toContain(option);
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--clock', 'sundial'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
  });
});
