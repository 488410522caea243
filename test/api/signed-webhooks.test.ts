import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { rotateAuthToken } from '../../src/store/credentials.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account, signingKeyOf, tokenOf } from '../store/fixtures.js';

interface Seen {
  path: string;
  url: string;
  signature: string | undefined;
  form: Record<string, string>;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

/** A customer application on 127.0.0.1 that records every request the platform makes to it. */
async function customerApp(): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let base = '';
  const server: Server = createServer(async (req, res) => {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const header = req.headers['x-twilio-signature'];
    seen.push({
      path,
      url: `${base}${req.url}`,
      signature: typeof header === 'string' ? header : undefined,
      form,
    });
    const xml = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(`<Response>${body}</Response>`);
    };
    if (path === '/broken') {
      res.writeHead(500);
      return res.end();
    }
    if (path === '/voice') return xml('<Redirect method="GET">/next?step=2&amp;note=a%20b</Redirect>');
    if (path === '/next') return xml('<Redirect method="POST">/moved</Redirect>');
    if (path === '/moved') {
      res.writeHead(307, { location: '/final?hop=1' });
      return res.end();
    }
    if (path === '/final') return xml('<Hangup/>');
    if (path === '/enqueue') return xml('<Enqueue waitUrl="/wait" action="/after">support</Enqueue>');
    if (path === '/wait') return xml('<Leave/>');
    if (path === '/after') return xml('<Hangup/>');
    res.writeHead(204);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen };
}

async function platform() {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const platformApp = await createEngineApp({
    store,
    clock: 'virtual',
    seed: 3,
    baseUrl: 'http://platform.test',
  });
  cleanups.push(() => platformApp.close());
  const call = (sid: string, form: Record<string, string>) =>
    platformApp.app.fetch(
      new Request(`http://platform.test/platform/2012-04-24/Accounts/${sid}/Calls.json`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${sid}:${tokenOf(sid)}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(form).toString(),
      }),
    );
  return { store, engine: platformApp.engine, call };
}

describe('requests to customer URLs are signed', () => {
  it('RCML, fallback, redirects (GET with a query, POST, a 307 hop) and status callbacks validate with twilio-node', async () => {
    const { base, seen } = await customerApp();
    const { engine, call } = await platform();
    const res = await call(ACCOUNT_A, {
      From: '+15550001',
      To: '+15550002',
      Url: `${base}/broken`,
      FallbackUrl: `${base}/voice`,
      StatusCallback: `${base}/status`,
      StatusCallbackEvent: 'initiated ringing answered completed',
    });
    expect(res.status).toBe(200);
    await engine.runUntilIdle();
    expect(seen.map((s) => s.path)).toEqual(
      expect.arrayContaining(['/broken', '/voice', '/next', '/moved', '/final', '/status']),
    );
    for (const s of seen) {
      expect(s.signature, s.url).toBeDefined();
      expect(
        twilio.validateRequest(signingKeyOf(ACCOUNT_A), s.signature as string, s.url, s.form),
        s.url,
      ).toBe(true);
      expect(twilio.validateRequest(signingKeyOf(ACCOUNT_B), s.signature as string, s.url, s.form)).toBe(
        false,
      );
    }
    const get = seen.find((s) => s.path === '/next');
    expect(get?.url).toContain('?step=2');
    expect(get?.form).toEqual({});
  });

  it("each account's requests carry its own key's signature, and a new key applies at once", async () => {
    const { base, seen } = await customerApp();
    const { store, engine, call } = await platform();
    await call(ACCOUNT_B, { From: '+15550001', To: '+15550002', Url: `${base}/final` });
    await engine.runUntilIdle();
    const first = seen.splice(0);
    expect(first).toHaveLength(1);
    expect(
      twilio.validateRequest(
        signingKeyOf(ACCOUNT_B),
        first[0].signature as string,
        first[0].url,
        first[0].form,
      ),
    ).toBe(true);
    const rotated = await rotateAuthToken(store.accounts, ACCOUNT_A, { newSigningKey: true });
    await engine.createCall({ From: '+1', To: '+2', Url: `${base}/final`, accountSid: ACCOUNT_A });
    await engine.runUntilIdle();
    expect(seen).toHaveLength(1);
    expect(
      twilio.validateRequest(rotated.signingKey, seen[0].signature as string, seen[0].url, seen[0].form),
    ).toBe(true);
    expect(
      twilio.validateRequest(signingKeyOf(ACCOUNT_A), seen[0].signature as string, seen[0].url, seen[0].form),
    ).toBe(false);
  });

  it('a URL with a password is signed as the application sees it: without user information', async () => {
    const { base, seen } = await customerApp();
    const { engine } = await platform();
    const withPassword = base.replace('http://', 'http://user:pa55word@');
    await engine.createCall({ From: '+1', To: '+2', Url: `${withPassword}/final`, accountSid: ACCOUNT_A });
    await engine.runUntilIdle();
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe(`${base}/final`);
    expect(
      twilio.validateRequest(signingKeyOf(ACCOUNT_A), seen[0].signature as string, seen[0].url, seen[0].form),
    ).toBe(true);
  });

  it('queue wait documents and Enqueue actions are signed too', async () => {
    const { base, seen } = await customerApp();
    const { engine } = await platform();
    await engine.createCall({ From: '+1', To: '+2', Url: `${base}/enqueue`, accountSid: ACCOUNT_A });
    await engine.runUntilIdle();
    expect(seen.map((s) => s.path)).toEqual(['/enqueue', '/wait', '/after']);
    for (const s of seen) {
      expect(
        twilio.validateRequest(signingKeyOf(ACCOUNT_A), s.signature as string, s.url, s.form),
        s.url,
      ).toBe(true);
    }
  });
});
