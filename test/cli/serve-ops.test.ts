import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { startHostileServer } from '../support/hostile-webhook.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const ACCOUNT = `AC${'d'.repeat(32)}`;
const TOKEN = 'ops-secret-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const children: ChildProcess[] = [];
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of cleanups.splice(0)) f();
});

interface Served {
  url: string;
  child: ChildProcess;
  /** Standard error so far (the log). */
  log(): string;
  /** Resolves once the log holds a line matching `pattern`. */
  logged(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

/** Starts `rcml serve` with the account given through the environment. */
function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, RCML_ACCOUNT_SID: ACCOUNT, RCML_AUTH_TOKEN: TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stderr?.on('data', (d) => {
    err += d;
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logged = (pattern: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      const look = () => {
        const line = err.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) return resolve(line);
        if (child.exitCode !== null) return reject(new Error(`exited before logging ${pattern}: ${err}`));
        waiters.push(look);
      };
      look();
    });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && /account sid: AC/.test(out)) resolve({ url, child, log: () => err, logged, exited });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-ops-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An application server answering every request with the same RCML. */
async function appServer(rcml: string): Promise<string> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/xml' }).end(`<Response>${rcml}</Response>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/app`;
}

const post = (url: string, body: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });

const CALLS = `/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json`;

describe('rcml serve configuration', () => {
  it('reads every option from an environment variable, each listed in docs/operations.md', () => {
    const serveCommand = createProgram().commands.find((c) => c.name() === 'serve');
    const options = serveCommand?.options ?? [];
    expect(options.length).toBeGreaterThan(20);
    const docs = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    for (const option of options) {
      expect(option.envVar, `${option.long} has no environment variable`).toMatch(/^RCML_[A-Z0-9_]+$/);
      expect(docs, `${option.envVar} is not in docs/operations.md`).toContain(`| \`${option.long}`);
      expect(docs).toContain(`\`${option.envVar}\``);
    }
  });

  it('takes its settings from the environment: data, clock, log level and format, metrics off', async () => {
    const data = tempDir();
    const s = await serve([], {
      RCML_DATA: data,
      RCML_CLOCK: 'virtual',
      RCML_LOG_LEVEL: 'debug',
      RCML_LOG_FORMAT: 'json',
      RCML_METRICS: 'off',
    });
    expect((await fetch(`${s.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    const listening = JSON.parse(await s.logged(/"msg":"listening"/)) as Record<string, unknown>;
    expect(listening).toMatchObject({ level: 30, store: `data ${data}`, clock: 'virtual' });
    // A client that hangs up in the middle of its upload is a debug line, not an error.
    const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${CALLS} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n` +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nFrom=%2B1',
    );
    await new Promise((resolve) => setImmediate(resolve));
    socket.destroy();
    const aborted = JSON.parse(await s.logged(/client aborted/)) as Record<string, unknown>;
    expect(aborted).toMatchObject({ level: 20, method: 'POST' });
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.log()).not.toMatch(/"level":50/);
    expect(s.log()).not.toContain(TOKEN);
  });

  it('refuses a bad value from the environment like one on the command line', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0'], {
      env: { ...process.env, RCML_DRAIN_SECONDS: 'soon' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let err = '';
    child.stderr?.on('data', (d) => {
      err += d;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--drain-seconds');
    expect(err).toContain('expected a whole number >= 0');
  });
});

describe('rcml serve drain on SIGTERM', () => {
  /** A server on the virtual clock with one call 5 s into a 600 s Pause, draining after a SIGTERM. */
  async function draining() {
    const data = tempDir();
    const app = await appServer('<Pause length="600"/>');
    const s = await serve([
      '--data',
      data,
      '--clock',
      'virtual',
      '--drain-seconds',
      '3600',
      '--log-format',
      'json',
    ]);
    const placed = await post(`${s.url}${CALLS}`, { From: '+1555', To: '+1666', Url: app });
    const created = (await placed.json()) as { sid: string };
    await post(`${s.url}/sim/Advance`, { Seconds: '5' });
    s.child.kill('SIGTERM');
    await s.logged(/draining/);
    return { data, app, s, created };
  }

  it('refuses new calls with 503, lets the live call finish, then exits 0', async () => {
    const { app, s, created } = await draining();
    const refused = await post(`${s.url}${CALLS}`, { From: '+1555', To: '+1777', Url: app });
    expect(refused.status).toBe(503);
    // Another node (behind the same balancer) takes it: try again soon.
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ code: 20503, status: 503 });
    const ready = await fetch(`${s.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ failing: ['accepting-calls'] });
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    // The live call runs on: its Pause ends, and with it the call and the drain.
    await post(`${s.url}/sim/Advance`, { Seconds: '600' });
    expect(await s.exited).toBe(0);
    const ended = JSON.parse(await s.logged(/"msg":"call ended"/)) as Record<string, unknown>;
    expect(ended).toMatchObject({ callSid: created.sid, accountSid: ACCOUNT, status: 'completed' });
    expect(s.log()).toMatch(/no live call left/);
    expect(s.log()).not.toContain(TOKEN);
  });

  it('ends the live calls at once on a second SIGTERM, with their final records', async () => {
    const { data, s, created } = await draining();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.log()).toMatch(/ending the live calls/);
    const store = await openSqliteStore({ dir: data });
    try {
      expect(store.interruptedCalls).toEqual([]);
      expect(await store.calls.get(ACCOUNT, created.sid)).toMatchObject({ status: 'completed', duration: 5 });
    } finally {
      await store.close();
    }
  });

  it('on a virtual clock without --drain-seconds, ends the live calls at once: they move only through /sim/Advance', async () => {
    const data = tempDir();
    const app = await appServer('<Pause length="600"/>');
    const s = await serve(['--data', data, '--clock', 'virtual', '--log-format', 'json']);
    const created = (await (
      await post(`${s.url}${CALLS}`, { From: '+1555', To: '+1666', Url: app })
    ).json()) as {
      sid: string;
    };
    await post(`${s.url}/sim/Advance`, { Seconds: '5' });
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(await s.logged(/draining/)).toContain('"drainSeconds":0');
    expect(s.log()).toMatch(/drain time over: ending the live calls/);
    const store = await openSqliteStore({ dir: data });
    try {
      expect(await store.calls.get(ACCOUNT, created.sid)).toMatchObject({ status: 'completed', duration: 5 });
    } finally {
      await store.close();
    }
  });

  it('started by npm, stops like on SIGTERM once npm is gone (npx passes the signal to a shell only)', async () => {
    const data = tempDir();
    // The shell stands for npm exec's: it runs the server as a child and does not exec it.
    const shell = spawn(
      'sh',
      [
        '-c',
        '"$0" --import tsx "$1" serve --port 0 --data "$2" --clock virtual --log-format json; true',
        process.execPath,
        MAIN,
        data,
      ],
      {
        env: { ...process.env, npm_command: 'exec', RCML_ACCOUNT_SID: ACCOUNT, RCML_AUTH_TOKEN: TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(shell);
    let out = '';
    let err = '';
    shell.stdout?.on('data', (d) => {
      out += d;
    });
    const closed = new Promise<void>((resolve) => shell.stderr?.on('end', resolve));
    shell.stderr?.on('data', (d) => {
      err += d;
      if (/"msg":"listening"/.test(err) && shell.exitCode === null) shell.kill('SIGKILL');
    });
    // The server holds the pipes until it exits; they close once it has stopped by itself.
    await closed;
    expect(out).toContain('account sid: AC');
    expect(err).toContain('"reason":"npm, which started the server, exited"');
    expect(err).toMatch(/"msg":"stopped"/);
  });

  it('exits within its drain time while a webhook is still dripping: the call closed, its fetch aborted', async () => {
    // One byte every 50 ms: the webhook would hold the request until the 15 s fetch deadline.
    const hostile = await startHostileServer({ dripMs: 50 });
    cleanups.push(() => void hostile.stop());
    const data = tempDir();
    const s = await serve(['--data', data, '--drain-seconds', '1', '--log-format', 'json']);
    const arrived = hostile.arrival('/drip');
    const closed = hostile.closed('/drip');
    const created = (await (
      await post(`${s.url}${CALLS}`, { From: '+1555', To: '+1666', Url: `${hostile.base}/drip` })
    ).json()) as { sid: string };
    await arrived;
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await closed;
    // Ended by the drain, not by the deadline: far fewer bytes than 15 s of dripping.
    expect(hostile.written.get('/drip') ?? 0).toBeLessThan(200);
    const store = await openSqliteStore({ dir: data });
    try {
      expect(store.interruptedCalls).toEqual([]);
      const call = await store.calls.get(ACCOUNT, created.sid);
      // Closed by the server itself, with its final record written.
      expect(call).toMatchObject({ status: 'completed', endedBy: 'engine' });
      expect(call?.endTime).toBeDefined();
    } finally {
      await store.close();
    }
  });
});
