import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import twilio from 'twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../../src/api/engine-server.js';
import { expressValidateWebhooks, validateWebhooks } from '../../../src/api/webhooks/index.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account, signingKeyOf, tokenOf } from '../../store/fixtures.js';

const KEY = signingKeyOf(ACCOUNT_A);
const FORM = { AccountSid: ACCOUNT_A, CallSid: `CA${'1'.repeat(32)}`, From: '+15550100', Digits: '1' };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A hono application whose /voice routes are validated; it answers the form it read. */
function honoApp(options: Parameters<typeof validateWebhooks>[0]): Hono {
  const app = new Hono();
  app.use('/voice/*', validateWebhooks(options));
  app.all('/voice/*', async (c) => c.json(c.req.method === 'POST' ? await c.req.parseBody() : {}));
  return app;
}

function post(url: string, form: Record<string, string>, signature?: string): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(signature ? { 'X-Twilio-Signature': signature } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
}

describe('validateWebhooks (hono)', () => {
  it('passes a request signed with the signing key as twilio-node signs it, form still readable', async () => {
    const url = 'http://app.test/voice/menu?step=2';
    const signature = twilio.getExpectedTwilioSignature(KEY, url, FORM);
    const res = await honoApp({ signingKey: KEY }).fetch(post(url, FORM, signature));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(FORM);
    const get = 'http://app.test/voice/status?CallSid=CA1';
    const signedGet = twilio.getExpectedTwilioSignature(KEY, get, {});
    expect(
      (
        await honoApp({ signingKey: KEY }).fetch(
          new Request(get, { headers: { 'X-Twilio-Signature': signedGet } }),
        )
      ).status,
    ).toBe(200);
  });

  it('refuses with 403 and the reason: no header, a changed field, the auth token as key', async () => {
    const url = 'http://app.test/voice/menu';
    const app = honoApp({ signingKey: KEY });
    const none = await app.fetch(post(url, FORM));
    expect(none.status).toBe(403);
    expect(await none.text()).toBe('webhook refused: no X-Twilio-Signature header');
    const signature = twilio.getExpectedTwilioSignature(KEY, url, FORM);
    const changed = await app.fetch(post(url, { ...FORM, Digits: '9' }, signature));
    expect(changed.status).toBe(403);
    const byToken = twilio.getExpectedTwilioSignature(tokenOf(ACCOUNT_A), url, FORM);
    const wrongKey = await app.fetch(post(url, FORM, byToken));
    expect(wrongKey.status).toBe(403);
    expect(await wrongKey.text()).toContain('signing key, not the auth token');
    // The verdicts agree with twilio-node's own validator.
    expect(twilio.validateRequest(KEY, signature, url, { ...FORM, Digits: '9' })).toBe(false);
    expect(twilio.validateRequest(KEY, signature, url, FORM)).toBe(true);
  });

  it("chooses each account's key by AccountSid, and checks the URL the platform called behind a proxy", async () => {
    const keys: Record<string, string> = { [ACCOUNT_A]: KEY, [ACCOUNT_B]: signingKeyOf(ACCOUNT_B) };
    const app = honoApp({ signingKey: (sid) => keys[sid], publicOrigin: 'https://voice.example.com' });
    const formB = { ...FORM, AccountSid: ACCOUNT_B };
    const called = 'https://voice.example.com/voice/menu';
    const signature = twilio.getExpectedTwilioSignature(signingKeyOf(ACCOUNT_B), called, formB);
    expect((await app.fetch(post('http://10.0.0.5:3000/voice/menu', formB, signature))).status).toBe(200);
    const unknown = await app.fetch(
      post('http://10.0.0.5:3000/voice/menu', { ...formB, AccountSid: 'AC0' }, signature),
    );
    expect(await unknown.text()).toBe('webhook refused: no signing key for account AC0');
  });

  it("accepts every request the engine makes to a real application, and the application's RCML runs", async () => {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    const seen: string[] = [];
    const app = new Hono();
    app.use('*', validateWebhooks({ signingKey: KEY }));
    app.post('*', (c) => {
      seen.push(c.req.path);
      const body = c.req.path === '/voice' ? '<Redirect>/next?x=1</Redirect>' : '<Hangup/>';
      return c.body(`<Response>${body}</Response>`, 200, { 'Content-Type': 'text/xml' });
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const platform = await createEngineApp({
      store,
      clock: 'virtual',
      seed: 1,
      baseUrl: 'http://platform.test',
    });
    cleanups.push(() => platform.close());
    const res = await platform.app.fetch(
      new Request(`http://platform.test/platform/2012-04-24/Accounts/${ACCOUNT_A}/Calls.json`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${ACCOUNT_A}:${tokenOf(ACCOUNT_A)}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          From: '+15550001',
          To: '+15550002',
          Url: `${base}/voice`,
          StatusCallback: `${base}/status`,
        }).toString(),
      }),
    );
    expect(res.status).toBe(200);
    await platform.engine.runUntilIdle();
    expect(seen).toEqual(['/voice', '/next', '/status']);
  });
});

describe('expressValidateWebhooks', () => {
  async function expressApp(parse: boolean) {
    const app = express();
    if (parse) app.use(express.urlencoded({ extended: false }));
    app.use('/voice', expressValidateWebhooks({ signingKey: KEY }));
    app.post('/voice/menu', (req, res) => {
      res.json(req.body);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('passes a signed request and refuses a changed one with 403', async () => {
    const base = await expressApp(true);
    const url = `${base}/voice/menu?step=2`;
    const signature = twilio.getExpectedTwilioSignature(KEY, url, FORM);
    const ok = await fetch(post(url, FORM, signature));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(FORM);
    const changed = await fetch(post(url, { ...FORM, Digits: '2' }, signature));
    expect(changed.status).toBe(403);
    expect(await changed.text()).toContain('does not match');
  });

  it('fails loudly when the form was not parsed first', async () => {
    const base = await expressApp(false);
    const url = `${base}/voice/menu`;
    const res = await fetch(post(url, FORM, twilio.getExpectedTwilioSignature(KEY, url, FORM)));
    expect(res.status).toBe(500);
  });
});
