import twilio from 'twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { type EngineServer, startEngineServer } from '../../src/api/engine-server.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, call, recording, tokenOf, wav } from '../store/fixtures.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const HOLD_URL = 'http://app.test/hold';
const TOKEN = tokenOf(ACCOUNT_A);

async function startPlatform(): Promise<EngineServer> {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  for (let n = 1; n <= 5; n++) await store.calls.put(call(n, { accountSid: ACCOUNT_A }));
  await store.recordings.put(recording(1, { accountSid: ACCOUNT_A }), wav(80));
  await store.recordings.put(recording(2, { accountSid: ACCOUNT_A }), wav(80));
  const server = await startEngineServer({ store, clock: 'virtual', seed: 7, epoch: Date.UTC(2024, 2, 5) });
  server.engine.registerHandler(HOLD_URL, () => ({
    status: 200,
    contentType: 'text/xml',
    body: '<Response><Pause length="600"/></Response>',
  }));
  cleanups.push(() => server.close());
  return server;
}

/** A twilio-node client whose requests go to the local server instead of Twilio's host. */
function clientFor(server: EngineServer) {
  const requests: string[] = [];
  const real = new twilio.RequestClient();
  const httpClient = {
    request: (opts: Parameters<typeof real.request>[0]) => {
      const uri = opts.uri.replace('https://api.twilio.com', server.baseUrl);
      requests.push(`${opts.method.toUpperCase()} ${uri.slice(server.baseUrl.length)}`);
      return real.request({ ...opts, uri });
    },
  } as unknown as typeof real;
  return { client: twilio(ACCOUNT_A, TOKEN, { httpClient }), requests };
}

describe('the Twilio dialect at /2010-04-01, driven by twilio-node', () => {
  it('creates, fetches, updates and lists calls, auto-paging to the end', async () => {
    const server = await startPlatform();
    const { client, requests } = clientFor(server);

    const created = await client.calls.create({
      to: '+15550123',
      from: '+15550100',
      url: HOLD_URL,
      statusCallback: 'http://app.test/status',
      statusCallbackEvent: ['initiated', 'completed'],
    });
    expect(created.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(created.to).toBe('+15550123');
    expect(created.uri).toBe(`/2010-04-01/Accounts/${ACCOUNT_A}/Calls/${created.sid}.json`);
    expect(created.subresourceUris.recordings).toBe(
      `/2010-04-01/Accounts/${ACCOUNT_A}/Calls/${created.sid}/Recordings.json`,
    );

    const fetched = await client.calls(created.sid).fetch();
    expect(fetched.sid).toBe(created.sid);
    expect(fetched.from).toBe('+15550100');

    await server.engine.advance(5);
    expect((await client.calls(created.sid).fetch()).status).toBe('in-progress');
    const updated = await client.calls(created.sid).update({ status: 'completed' });
    expect(updated.sid).toBe(created.sid);
    expect((await client.calls(created.sid).fetch()).status).toBe('completed');

    requests.length = 0;
    const all = await client.calls.list({ pageSize: 2 });
    expect(all).toHaveLength(6);
    expect(new Set(all.map((c) => c.sid)).size).toBe(6);
    expect(requests).toHaveLength(3);
    expect(requests[2]).toContain('Page=2&PageSize=2&AfterSid=');
    expect(requests.every((r) => r.startsWith(`GET /2010-04-01/Accounts/${ACCOUNT_A}/Calls.json`))).toBe(
      true,
    );
  });

  it('answers 201 on create, JSON null for missing links, numeric positions', async () => {
    const server = await startPlatform();
    const auth = `Basic ${Buffer.from(`${ACCOUNT_A}:${TOKEN}`).toString('base64')}`;
    const root = `${server.baseUrl}/2010-04-01/Accounts/${ACCOUNT_A}`;
    const res = await fetch(`${root}/Calls.json`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ To: '+15550123', From: '+15550100', Url: HOLD_URL }).toString(),
    });
    expect(res.status).toBe(201);
    const page = (await (
      await fetch(`${root}/Calls.json?PageSize=50`, { headers: { Authorization: auth } })
    ).json()) as Record<string, unknown>;
    expect(page.next_page_uri).toBeNull();
    expect(page.previous_page_uri).toBeNull();
    expect(page.start).toBe(0);
    expect(page.end).toBe(5);
    expect(page.first_page_uri).toBe(`/2010-04-01/Accounts/${ACCOUNT_A}/Calls.json?Page=0&PageSize=50`);
    const xml = await (
      await fetch(`${root}/Calls/${call(1).sid}.xml`, { headers: { Authorization: auth } })
    ).text();
    expect(xml).toContain('<TwilioResponse><Call><Sid>');
  });

  it('lists recordings', async () => {
    const server = await startPlatform();
    const { client } = clientFor(server);
    const recordings = await client.recordings.list();
    expect(recordings.map((r) => r.sid).sort()).toEqual([recording(1).sid, recording(2).sid].sort());
    expect(recordings[0].accountSid).toBe(ACCOUNT_A);
    const own = await client.api.v2010.accounts(ACCOUNT_A).fetch();
    expect(own.sid).toBe(ACCOUNT_A);
    expect(own.status).toBe('active');
  });

  it('rejects a bad To with the code and status Twilio clients read', async () => {
    const server = await startPlatform();
    const { client } = clientFor(server);
    const err = await client.calls.create({ to: 'not a number', from: '+15550100', url: HOLD_URL }).then(
      () => undefined,
      (e: unknown) => e as { status: number; code: number; message: string; moreInfo: string },
    );
    expect(err?.status).toBe(400);
    expect(err?.code).toBe(21211);
    expect(err?.message).toMatch(/^To: /);
    expect(err?.moreInfo).toBe('docs/errors.md#21211');
  });
});

describe('the Twilio dialect under a base path', () => {
  it('gives links relative to {base_url}, as Twilio gives them relative to its host', async () => {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    for (let n = 1; n <= 3; n++) await store.calls.put(call(n, { accountSid: ACCOUNT_A }));
    const app = createApp({ store, baseUrl: 'https://calls.example.com/rcml' });
    const auth = `Basic ${Buffer.from(`${ACCOUNT_A}:${TOKEN}`).toString('base64')}`;
    const res = await app.fetch(
      new Request(`https://calls.example.com/rcml/2010-04-01/Accounts/${ACCOUNT_A}/Calls.json?PageSize=2`, {
        headers: { Authorization: auth },
      }),
    );
    const page = (await res.json()) as { next_page_uri: string; calls: Array<{ uri: string }> };
    expect(page.next_page_uri).toBe(
      `/2010-04-01/Accounts/${ACCOUNT_A}/Calls.json?Page=1&PageSize=2&AfterSid=${call(2).sid}`,
    );
    expect(page.calls[0].uri).toBe(`/2010-04-01/Accounts/${ACCOUNT_A}/Calls/${call(1).sid}.json`);
  });
});
