import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createEngineApp } from '../../src/api/engine-server.js';
import { createLogger } from '../../src/api/ops/log.js';
import { createPlatformMetrics } from '../../src/api/ops/metrics.js';
import { runScenario } from '../../src/sim/runner.js';
import { scenarioSchema } from '../../src/sim/schema.js';
import { newAccount } from '../../src/store/credentials.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account, recording, tokenOf, wav } from '../store/fixtures.js';

const PASSWORD = 'Pa55-w0rd-in-a-url';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req);
}

/** A customer application: one failing document, one that points at URLs with a password. */
async function customerApp(): Promise<string> {
  let base = '';
  const server = createServer(async (req, res) => {
    await drain(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const secretBase = base.replace('http://', `http://user:${PASSWORD}@`);
    if (path === '/voice') {
      res.writeHead(200, { 'content-type': 'text/xml' });
      return res.end(
        `<Response><Play>${secretBase}/missing.wav</Play><Gather action="${secretBase}/gathered" timeout="1"/><Redirect>${secretBase}/nowhere</Redirect></Response>`,
      );
    }
    res.writeHead(path === '/broken' ? 500 : 404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return base.replace('http://', `http://user:${PASSWORD}@`);
}

describe('secrets never reach logs, notifications, traces or answers', () => {
  it('a call through URLs with a password, failed logins and every read: nothing shows a secret', async () => {
    const secretBase = await customerApp();
    const store = createMemoryStore();
    const { account: acct, authToken } = newAccount(ACCOUNT_A, { friendlyName: 'a', now: 0 });
    await store.accounts.put(acct);
    await store.accounts.put(account(ACCOUNT_B));

    const seen: string[] = [];
    const keep = (what: unknown) => seen.push(typeof what === 'string' ? what : JSON.stringify(what));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => keep(String(chunk)) > 0);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => keep(String(chunk)) > 0);
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => keep(args.map(String)));
    cleanups.push(() => {
      stderr.mockRestore();
      stdout.mockRestore();
      consoleError.mockRestore();
    });
    const log = createLogger({
      level: 'trace',
      format: 'json',
      destination: { write: (line) => keep(line) },
    });
    const platform = await createEngineApp({
      store,
      clock: 'virtual',
      seed: 5,
      baseUrl: 'http://platform.test',
      onError: (err) => keep(String(err instanceof Error ? err.stack : err)),
      ops: { log, metrics: createPlatformMetrics({ processMetrics: false }) },
      engine: { onEvent: (event) => keep(event) },
    });
    cleanups.push(() => platform.close());
    const api = async (path: string, init: RequestInit & { auth?: [string, string] } = {}) => {
      const [sid, token] = init.auth ?? [ACCOUNT_A, authToken];
      const headers = new Headers(init.headers);
      headers.set('Authorization', `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`);
      const res = await platform.app.fetch(new Request(`http://platform.test${path}`, { ...init, headers }));
      keep(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
      return res;
    };
    const root = `/platform/2012-04-24/Accounts/${ACCOUNT_A}`;
    const created = await api(`${root}/Calls.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        From: '+15550001',
        To: '+15550002',
        Url: `${secretBase}/broken`,
        FallbackUrl: `${secretBase}/voice`,
        StatusCallback: `${secretBase}/status`,
      }).toString(),
    });
    expect(created.status).toBe(200);
    await platform.engine.runUntilIdle();
    // Logins that fail: a token of another account, a sid with the right token, a bad URL.
    expect((await api(`${root}/Calls.json`, { auth: [ACCOUNT_A, tokenOf(ACCOUNT_B)] })).status).toBe(401);
    expect(
      (await api(`/platform/2012-04-24/Accounts/${ACCOUNT_B}/Calls.json`, { auth: [ACCOUNT_B, authToken] }))
        .status,
    ).toBe(401);
    await api(`${root}/Calls.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `From=%2B1&To=%2B2&Url=${encodeURIComponent(`${secretBase.replace('http', 'ftp')}/x`)}`,
    });
    for (const path of ['Calls.json', 'Calls.xml', 'Notifications.json', 'Notifications.xml']) {
      expect((await api(`${root}/${path}`)).status).toBe(200);
    }
    const notifications = await store.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 100 });
    expect(notifications.items.length).toBeGreaterThan(0);
    keep(notifications);
    keep(await store.calls.list({ accountSid: ACCOUNT_A, offset: 0, limit: 100 }));

    // The same flow as a scenario: its trace.
    const trace = await runScenario(
      scenarioSchema.parse({
        seed: 1,
        until: 60,
        calls: [{ at: 0, api: { From: '+1', To: '+2', Url: `${secretBase}/voice` } }],
      }),
    );
    keep(trace);

    const text = seen.join('\n');
    // The flow did happen and was logged: the scan has something to read.
    expect(text).toContain('user:***@127.0.0.1');
    expect(text).toContain(ACCOUNT_A);
    for (const secret of [authToken, acct.signingKey, PASSWORD, acct.authTokenHash, tokenOf(ACCOUNT_B)]) {
      expect(text.includes(secret), `a secret shows: ${secret}`).toBe(false);
    }
  });
});

describe('Cache-Control: no-store', () => {
  it('is on every answer of the API: records, errors, audio, the other areas and the operating routes', async () => {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    await store.recordings.put(recording(1), wav(8));
    const app = createApp({ store, baseUrl: 'http://api.test' });
    const auth = `Basic ${Buffer.from(`${ACCOUNT_A}:${tokenOf(ACCOUNT_A)}`).toString('base64')}`;
    const root = `/platform/2012-04-24/Accounts/${ACCOUNT_A}`;
    // Path, request, status (0: whatever the area answers).
    const cases: Array<[string, RequestInit, number]> = [
      [`${root}/Calls.json`, {}, 200],
      [`${root}/Calls.json`, { headers: {} }, 401],
      [`${root}/Calls/CA${'0'.repeat(32)}.json`, {}, 404],
      [`${root}/Recordings/${recording(1).sid}.wav`, {}, 200],
      [`${root}/Calls.json`, { method: 'DELETE' }, 405],
      ['/nowhere', {}, 404],
      ['/visual-designer/services/projects', {}, 200],
      ['/callqueue/queues', {}, 501],
      ['/taskrouter/workspaces?enterpriseSid=EN1', {}, 0],
      ['/autoattendant/user', {}, 0],
      ['/health', {}, 200],
    ];
    for (const [path, init, status] of cases) {
      const headers = new Headers(init.headers ?? { Authorization: auth });
      const res = await app.fetch(new Request(`http://api.test${path}`, { ...init, headers }));
      if (status !== 0) expect(res.status, path).toBe(status);
      expect(res.headers.get('cache-control'), `${init.method ?? 'GET'} ${path}`).toBe('no-store');
    }
  });
});
