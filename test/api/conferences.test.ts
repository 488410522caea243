import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createEngineApp } from '../../src/api/engine-server.js';
import type { RcmlHandler } from '../../src/engine/types.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account } from '../store/fixtures.js';
import { AUTH_A, AUTH_B, BASE, ROOT_A } from './harness.js';

const ROOT_B = `/platform/2012-04-24/Accounts/${ACCOUNT_B}`;
const xml = (body: string): ReturnType<RcmlHandler> => ({
  status: 200,
  contentType: 'text/xml',
  body: `<Response>${body}</Response>`,
});

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/** Two rooms of account A (`sales` with 3 callers, `support` with 1) and one of account B. */
async function rooms() {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock: 'virtual',
    seed: 3,
    epoch: Date.UTC(2024, 2, 5, 12),
  });
  opened.push(built);
  const { app, engine } = built;
  for (const name of ['sales', 'support', 'other']) {
    engine.registerHandler(`http://app.test/${name}`, () =>
      xml(`<Dial><Conference startConferenceOnEnter="true">${name}</Conference></Dial>`),
    );
  }
  const request = async (path: string, init: RequestInit = {}, auth = AUTH_A) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', auth);
    const res = await app.fetch(new Request(BASE + path, { ...init, headers }));
    const text = await res.text();
    return {
      status: res.status,
      text,
      // biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
      body: text.startsWith('{') ? (JSON.parse(text) as Record<string, any>) : {},
    };
  };
  const place = async (room: string, to: string, as: 'A' | 'B' = 'A') => {
    const res = await request(
      `${as === 'A' ? ROOT_A : ROOT_B}/Calls.json`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ From: '+15551111', To: to, Url: `http://app.test/${room}` }).toString(),
      },
      as === 'A' ? AUTH_A : AUTH_B,
    );
    expect(res.status).toBe(200);
    return res.body.sid as string;
  };
  const callers = [
    await place('sales', '+15550001'),
    await place('sales', '+15550002'),
    await place('sales', '+15550003'),
    await place('support', '+15550004'),
  ];
  await place('other', '+15550005', 'B');
  await engine.advance(2);
  return { ...built, request, callers };
}

describe('Conferences and Participants', () => {
  it('lists the account rooms with the list envelope, filters by FriendlyName and Status', async () => {
    const s = await rooms();
    const all = await s.request(`${ROOT_A}/Conferences.json`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    const listed: Array<{ friendly_name: string; sid: string; date_created: string }> = all.body.conferences;
    expect(listed.map((c) => c.friendly_name).sort()).toEqual(['sales', 'support']);
    // Opened at the same instant: in creation order, ties by sid.
    expect(listed[0].date_created).toBe(listed[1].date_created);
    expect(listed[0].sid < listed[1].sid).toBe(true);
    const sales = all.body.conferences.find((c: { friendly_name: string }) => c.friendly_name === 'sales');
    expect(sales.sid).toMatch(/^CF[0-9a-f]{32}$/);
    expect(sales.status).toBe('in-progress');
    expect(sales.account_sid).toBe(ACCOUNT_A);
    expect(sales.date_created).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
    expect(sales.uri).toBe(`/2012-04-24/Accounts/${ACCOUNT_A}/Conferences/${sales.sid}.json`);
    expect(sales.subresource_uris.participants).toBe(
      `/2012-04-24/Accounts/${ACCOUNT_A}/Conferences/${sales.sid}/Participants.json`,
    );
    const named = await s.request(`${ROOT_A}/Conferences.json?FriendlyName=support`);
    expect(named.body.conferences.map((c: { friendly_name: string }) => c.friendly_name)).toEqual([
      'support',
    ]);
    expect((await s.request(`${ROOT_A}/Conferences.json?Status=completed`)).body.total).toBe(0);
    const bad = await s.request(`${ROOT_A}/Conferences.json?Status=over`);
    expect(bad.status).toBe(400);
    expect(bad.body.parameter).toBe('Status');

    const one = await s.request(`${ROOT_A}/Conferences/${sales.sid}.json`);
    expect(one.body).toEqual(sales);
    expect((await s.request(`${ROOT_A}/Conferences/${sales.sid}.xml`)).text).toContain(
      `<Conference><Sid>${sales.sid}</Sid>`,
    );
    expect((await s.request(`${ROOT_B}/Conferences/${sales.sid}.json`, {}, AUTH_B)).status).toBe(404);
    expect((await s.request(`${ROOT_B}/Conferences.json`, {}, AUTH_B)).body.total).toBe(1);
  });

  it('lists participants page by page, fetches one and mutes it by the exposed sid', async () => {
    const s = await rooms();
    const [sales] = (await s.request(`${ROOT_A}/Conferences.json?FriendlyName=sales`)).body.conferences;
    const base = `${ROOT_A}/Conferences/${sales.sid}/Participants`;
    const first = await s.request(`${base}.json?PageSize=2`);
    expect(first.body.total).toBe(3);
    expect(first.body.participants.map((p: { call_sid: string }) => p.call_sid)).toEqual(
      s.callers.slice(0, 2),
    );
    const second = await s.request(first.body.next_page_uri);
    expect(second.body.participants.map((p: { call_sid: string }) => p.call_sid)).toEqual([s.callers[2]]);
    expect(second.body.next_page_uri).toBe('null');

    const muted = await s.request(`${base}/${s.callers[1]}.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'Mute=true',
    });
    expect(muted.status).toBe(200);
    const one = await s.request(`${base}/${s.callers[1]}.json`);
    expect(one.body).toMatchObject({
      call_sid: s.callers[1],
      conference_sid: sales.sid,
      account_sid: ACCOUNT_A,
      muted: true,
      hold: false,
      start_conference_on_enter: true,
      end_conference_on_exit: false,
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/Conferences/${sales.sid}/Participants/${s.callers[1]}.json`,
    });
    const onlyMuted = await s.request(`${base}.json?Muted=true`);
    expect(onlyMuted.body.participants.map((p: { call_sid: string }) => p.call_sid)).toEqual([s.callers[1]]);
    expect((await s.request(`${base}.json?Muted=yes`)).status).toBe(400);
    expect((await s.request(`${base}/${s.callers[3]}.json`)).status).toBe(404);
    expect((await s.request(`${base}.xml`)).text).toContain('<Participants page="0"');
  });

  it('reads the rooms from the store, with or without a call engine', async () => {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    const at = Date.UTC(2024, 2, 5, 12);
    await store.conferences.put({
      sid: `CF${'1'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      friendlyName: 'elsewhere',
      status: 'in-progress',
      dateCreated: at,
      dateUpdated: at,
      participants: [
        {
          callSid: `CA${'2'.repeat(32)}`,
          muted: true,
          hold: false,
          startConferenceOnEnter: true,
          endConferenceOnExit: false,
          joinedAt: at,
        },
      ],
    });
    const app = createApp({ store, baseUrl: BASE });
    const get = async (path: string) => {
      const res = await app.fetch(
        new Request(`${BASE}${ROOT_A}${path}`, { headers: { Authorization: AUTH_A } }),
      );
      // biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const list = await get('/Conferences.json?DateCreated=2024-03-05');
    expect(list.status).toBe(200);
    expect(list.body.conferences.map((c: { friendly_name: string }) => c.friendly_name)).toEqual([
      'elsewhere',
    ]);
    expect((await get('/Conferences.json?DateCreated=2024-03-06')).body.total).toBe(0);
    expect((await get('/Conferences.json?DateUpdated=2024-03-05T12:00:00')).body.total).toBe(1);
    expect((await get('/Conferences.json?DateCreated=yesterday')).status).toBe(400);
    const people = await get(`/Conferences/CF${'1'.repeat(32)}/Participants.json`);
    expect(people.body.participants).toMatchObject([{ call_sid: `CA${'2'.repeat(32)}`, muted: true }]);
  });
});
