/** The console's server side over HTTP: page and assets, login, CSRF, expiry, the REST calls, the stream. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { changeAccount, createAccount } from '../../../src/store/account-admin.js';
import { rotateAuthToken } from '../../../src/store/credentials.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import {
  ACCOUNT,
  basicOf,
  type ConsoleServer,
  consoleAssets,
  OTHER,
  OTHER_TOKEN,
  startConsoleServer,
  TOKEN,
} from './setup.js';

let clock = 0;
let s: ConsoleServer;

beforeAll(async () => {
  s = await startConsoleServer({ sessions: { idleMs: 60_000, now: () => clock } });
});
afterAll(() => s?.close());

interface Login {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function login(sid = ACCOUNT, token = TOKEN): Promise<Login> {
  const res = await fetch(`${s.url}/console/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ accountSid: sid, authToken: token }),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('Set-Cookie') ?? '';
  const body = (await res.json()) as { csrfToken: string; accountSid: string };
  expect(body.accountSid).toBe(sid);
  return { cookie: setCookie.split(';')[0], csrf: body.csrfToken, setCookie };
}

const get = (path: string, who?: Login) =>
  fetch(`${s.url}${path}`, { headers: who ? { Cookie: who.cookie } : {} });

const post = (
  path: string,
  who: Login,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { Cookie: who.cookie, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe('the console page', () => {
  it('is served at /console/ without caching, its hashed assets immutable, nothing from elsewhere', async () => {
    const bare = await fetch(`${s.url}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('Location')).toBe('/console/');
    const page = await get('/console/');
    expect(page.status).toBe(200);
    expect(page.headers.get('Cache-Control')).toBe('no-cache');
    expect(page.headers.get('Content-Security-Policy')).toContain("default-src 'self'");
    expect(page.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const script = /src="assets\/(main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(html).not.toMatch(/https?:\/\//);
    const asset = await get(`/console/assets/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/console/assets/main-NOSUCH.js')).status).toBe(404);
  });

  it('answers 503 naming the build when the front end is not built, and is absent unless asked for', async () => {
    const store = createMemoryStore();
    const unbuilt = createApp({ store, console: { assetsDir: `${await consoleAssets()}/missing` } });
    const res = await unbuilt.fetch(new Request('http://x.test/console/'));
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toContain('npm run build');
    const without = createApp({ store });
    expect((await without.fetch(new Request('http://x.test/console/'))).status).toBe(404);
  });
});

describe('console login and sessions', () => {
  it('refuses bad logins with the field named, credentials in the URL, and other origins', async () => {
    const attempt = (body: string, query = '', headers: Record<string, string> = {}) =>
      fetch(`${s.url}/console/api/login${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
    const notJson = await attempt('{');
    expect([notJson.status, ((await notJson.json()) as { code: number }).code]).toEqual([400, 20002]);
    const missing = await attempt(JSON.stringify({ accountSid: ACCOUNT }));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { parameter: string }).parameter).toBe('authToken');
    const wrong = await attempt(JSON.stringify({ accountSid: ACCOUNT, authToken: 'nope' }));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('Set-Cookie')).toBeNull();
    const unknown = await attempt(JSON.stringify({ accountSid: `AC${'9'.repeat(32)}`, authToken: TOKEN }));
    expect(unknown.status).toBe(401);
    const inUrl = await attempt(
      JSON.stringify({ accountSid: ACCOUNT, authToken: TOKEN }),
      `?authToken=${TOKEN}`,
    );
    expect(inUrl.status).toBe(400);
    const elsewhere = await attempt(JSON.stringify({ accountSid: ACCOUNT, authToken: TOKEN }), '', {
      Origin: 'https://evil.example',
    });
    expect(elsewhere.status).toBe(403);
  });

  it('sets an HttpOnly SameSite=Strict cookie scoped to the console, holding no credentials', async () => {
    const who = await login();
    expect(who.setCookie).toMatch(
      /^rcml_console=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict$/,
    );
    expect(who.setCookie).not.toContain(TOKEN);
    const session = await get('/console/api/session', who);
    expect(((await session.json()) as { accountSid: string }).accountSid).toBe(ACCOUNT);
    expect((await get('/console/api/session')).status).toBe(401);
    // The console's routes take the session, not Basic credentials.
    const basic = await fetch(`${s.url}/console/api/session`, {
      headers: { Authorization: basicOf(ACCOUNT, TOKEN) },
    });
    expect(basic.status).toBe(401);
  });

  it('needs the CSRF token for every change, and ends at logout', async () => {
    const who = await login();
    const calls = `/console/api/rest/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json`;
    const fields = { From: '+15551111', To: '+15550200', Url: 'http://app.test/hold' };
    expect((await post(calls, who, fields)).status).toBe(403);
    expect((await post(calls, who, fields, { 'X-CSRF-Token': 'guess' })).status).toBe(403);
    expect(
      (await post(calls, who, fields, { 'X-CSRF-Token': who.csrf, Origin: 'https://evil.example' })).status,
    ).toBe(403);
    const placed = await post(calls, who, fields, { 'X-CSRF-Token': who.csrf });
    expect(placed.status).toBe(200);
    const sid = ((await placed.json()) as { sid: string }).sid;
    const hangup = await post(
      `/console/api/rest/platform/2012-04-24/Accounts/${ACCOUNT}/Calls/${sid}.json`,
      who,
      { Status: 'completed' },
      { 'X-CSRF-Token': who.csrf },
    );
    expect(((await hangup.json()) as { status: string }).status).toBe('canceled');
    expect((await post('/console/api/logout', who, {})).status).toBe(403);
    expect((await post('/console/api/logout', who, {}, { 'X-CSRF-Token': who.csrf })).status).toBe(204);
    expect((await get('/console/api/session', who)).status).toBe(401);
    expect((await get(calls, who)).status).toBe(401);
  });

  it('expires after the idle time', async () => {
    const who = await login();
    clock += 59_000;
    expect((await get('/console/api/session', who)).status).toBe(200);
    clock += 61_000;
    expect((await get('/console/api/session', who)).status).toBe(401);
  });

  it("reads and acts only on the session's account, and a rotated token ends the session", async () => {
    const other = await login(OTHER, OTHER_TOKEN);
    const mine = await get(`/console/api/rest/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json`, other);
    expect(mine.status).toBe(403);
    const own = await get(`/console/api/rest/platform/2012-04-24/Accounts/${OTHER}/Calls.json`, other);
    expect(own.status).toBe(200);
    expect((await get('/console/api/rest/console/api/session', other)).status).toBe(404);
    await rotateAuthToken(s.store.accounts, OTHER);
    expect(
      (await get(`/console/api/rest/platform/2012-04-24/Accounts/${OTHER}/Calls.json`, other)).status,
    ).toBe(401);
    expect((await get('/console/api/session', other)).status).toBe(401);
  });

  it('refuses the login of a suspended account (403, code 20005) with its right token', async () => {
    const { account, authToken } = await createAccount(s.store.accounts, { friendlyName: 'paused', now: 0 });
    await changeAccount(s.store.accounts, account.sid, { status: 'suspended' }, 0);
    const res = await fetch(`${s.url}/console/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ accountSid: account.sid, authToken }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: number }).code).toBe(20005);
    expect(res.headers.get('Set-Cookie')).toBeNull();
  });

  it('refuses logins for an account sid after ten failures within a minute, until the minute ends', async () => {
    const attempt = (token: string) =>
      fetch(`${s.url}/console/api/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ accountSid: ACCOUNT, authToken: token }),
      });
    for (let i = 0; i < 10; i++) expect((await attempt(`guess-${i}`)).status).toBe(401);
    const refused = await attempt(TOKEN);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(((await refused.json()) as { code: number }).code).toBe(20429);
    clock += 60_000;
    expect((await attempt(TOKEN)).status).toBe(200);
  });
});
