import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { fetcherOptionsOf, serveFetchOptions } from '../../src/cli/commands/serve-fetch.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const ACCOUNT = `AC${'e'.repeat(32)}`;
const TOKEN = 'fetch-flags-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanups.splice(0)) f();
});

/** Parses the flags alone, as `rcml serve` does, with `env` as the environment. */
function parse(args: string[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const cmd = new Command().exitOverride().configureOutput({ writeErr: () => {} });
    for (const option of serveFetchOptions()) cmd.addOption(option);
    cmd.parse(args, { from: 'user' });
    return cmd.opts() as { maxDocumentBytes: number; fetchDeadline: number; closeGrace: number };
  } finally {
    for (const key of Object.keys(env)) if (!(key in saved)) delete process.env[key];
  }
}

/** Runs `rcml serve` with `args` and `env`; resolves with its exit code and standard error. */
function run(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'serve', '--port', '0', ...args],
    {
      env: { ...process.env, RCML_ACCOUNT_SID: ACCOUNT, RCML_AUTH_TOKEN: TOKEN, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  cleanups.push(() => child.exitCode === null && child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, out: () => out, err: () => err };
}

describe('rcml serve outgoing-request flags', () => {
  it('have the fetcher defaults, and read the command line before the environment', () => {
    expect(fetcherOptionsOf(parse([]))).toEqual({
      maxDocumentBytes: 1024 * 1024,
      deadlineMs: 15_000,
      closeGraceMs: 3_000,
    });
    const fromEnv = parse([], {
      RCML_MAX_DOCUMENT_BYTES: '2048',
      RCML_FETCH_DEADLINE: '2.5',
      RCML_CLOSE_GRACE: '0',
    });
    expect(fetcherOptionsOf(fromEnv)).toEqual({ maxDocumentBytes: 2048, deadlineMs: 2500, closeGraceMs: 0 });
    const both = parse(['--fetch-deadline', '30'], { RCML_FETCH_DEADLINE: '2' });
    expect(both.fetchDeadline).toBe(30);
  });

  it.each([
    [['--max-document-bytes', '0'], '--max-document-bytes', 'expected a whole number of bytes >= 1'],
    [['--max-document-bytes', '1MiB'], '--max-document-bytes', 'expected a whole number of bytes >= 1'],
    [['--fetch-deadline', '0'], '--fetch-deadline', 'expected seconds > 0'],
    [['--fetch-deadline', '-1'], '--fetch-deadline', 'expected seconds > 0'],
    [['--close-grace', 'soon'], '--close-grace', 'expected seconds >= 0'],
  ])('refuses %j naming the flag', (args, flag, words) => {
    expect(() => parse(args)).toThrow(new RegExp(`${flag}.*${words}`));
  });

  it('exits 2 naming the flag for a bad value in the environment', async () => {
    const r = run([], { RCML_FETCH_DEADLINE: 'later' });
    expect(await r.exited).toBe(2);
    expect(r.err()).toContain('--fetch-deadline');
    expect(r.err()).toContain('expected seconds > 0');
  });

  it('caps the documents a served call fetches at --max-document-bytes', async () => {
    const rcml = `<Response><Say>${'x'.repeat(400)}</Say></Response>`;
    const app = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/xml' }).end(rcml));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => app.close());
    const appUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/app`;
    const data = mkdtempSync(join(tmpdir(), 'rcml-fetch-flags-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const r = run(['--data', data, '--clock', 'virtual', '--log-format', 'json'], {
      RCML_MAX_DOCUMENT_BYTES: '100',
    });
    const url = await new Promise<string>((resolve, reject) => {
      r.child.stdout?.on('data', () => {
        const found = /listening on (http:\/\/\S+)/.exec(r.out())?.[1];
        if (found && /account sid: AC/.test(r.out())) resolve(found);
      });
      void r.exited.then((code) => reject(new Error(`serve exited ${code}: ${r.err()}`)));
    });
    const created = await fetch(`${url}/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json`, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ From: '+1555', To: '+1666', Url: appUrl }).toString(),
    });
    expect(created.ok).toBe(true);
    // On the virtual clock the call is answered, and its document fetched, once time moves.
    await fetch(`${url}/sim/Advance`, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'Seconds=5',
    });
    const line = await new Promise<string>((resolve, reject) => {
      const look = () => {
        const found = r
          .err()
          .split('\n')
          .find((l) => l.includes('"msg":"webhook failed"'));
        if (found) resolve(found);
      };
      r.child.stderr?.on('data', look);
      look();
      void r.exited.then(() => reject(new Error(`serve exited: ${r.err()}`)));
    });
    expect(line).toContain('response body exceeds 100 bytes');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });
});
