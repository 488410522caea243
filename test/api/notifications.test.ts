import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import type { NotificationRecord } from '../../src/engine/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { ACCOUNT_A, ACCOUNT_B, account, call } from '../store/fixtures.js';
import { openScratchPostgres, PG_URL } from '../support/services.js';
import { AUTH_A, AUTH_B, BASE, ROOT_A, setup } from './harness.js';

const dirs: string[] = [];
const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-notifications-'));
  dirs.push(d);
  return d;
}

const stores: Array<[string, () => Store | Promise<Store>]> = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => openSqliteStore({ dir: tempDir() })],
  ...(PG_URL ? [['postgres', () => openScratchPostgres()] as [string, () => Promise<Store>]] : []),
];

const ROOT_B = `/platform/2012-04-24/Accounts/${ACCOUNT_B}`;
const callB = call(9, { accountSid: ACCOUNT_B });

const note = (n: number, over: Partial<NotificationRecord> = {}): NotificationRecord => ({
  sid: `NO${n.toString(16).padStart(32, '0')}`,
  accountSid: ACCOUNT_A,
  callSid: call(1).sid,
  code: '12100',
  log: 0,
  message: `message ${n}`,
  dateCreated: Date.UTC(2024, 2, 5, 12, 0, n),
  ...over,
});

/** A: 1 and 3 on call 1, 2 on call 2, 4 on no call a day later; B: 5 on its own call. */
const SEED = [
  note(1, { code: '21402', log: 1, message: 'URL not found (HTTP 404)', url: 'http://app.test/missing' }),
  note(2, { callSid: call(2).sid, code: '11205' }),
  note(3),
  note(4, {
    callSid: undefined,
    code: 'rcml.call-interrupted',
    log: 1,
    dateCreated: Date.UTC(2024, 2, 6, 8),
  }),
  note(5, { accountSid: ACCOUNT_B, callSid: callB.sid }),
];

const sidsOf = (body: Record<string, unknown>) =>
  (body.notifications as Array<{ sid: string }>).map((n) => n.sid);

describe.each(stores)('Notifications over the %s store', (_name, open) => {
  async function seeded() {
    const h = await setup(undefined, await open());
    opened.push(h.store);
    await h.store.calls.putMany([call(1), call(2), callB]);
    for (const n of SEED) await h.store.notifications.put(n);
    return h;
  }

  it('lists the account notifications in creation order, in the family record shape', async () => {
    const { json } = await seeded();
    const { status, body } = await json(`${ROOT_A}/Notifications.json`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ page: 0, num_pages: 1, page_size: 50, total: 4, start: '0', end: '3' });
    expect(body).not.toHaveProperty('limit');
    expect(sidsOf(body)).toEqual([note(1).sid, note(2).sid, note(3).sid, note(4).sid]);
    const [first, , , last] = body.notifications as Array<Record<string, unknown>>;
    expect(first).toEqual({
      sid: note(1).sid,
      date_created: 'Tue, 05 Mar 2024 12:00:01 +0000',
      date_updated: 'Tue, 05 Mar 2024 12:00:01 +0000',
      account_sid: ACCOUNT_A,
      call_sid: call(1).sid,
      api_version: '2012-04-24',
      log: 1,
      error_code: '21402',
      more_info: '',
      message_text: 'URL not found (HTTP 404)',
      message_date: 'Tue, 05 Mar 2024 12:00:01 +0000',
      request_url: 'http://app.test/missing',
      request_method: '',
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/Notifications/${note(1).sid}.json`,
    });
    expect(last).toMatchObject({ call_sid: '', request_url: '', error_code: 'rcml.call-interrupted' });
  });

  it('renders the list as XML with the suffix and without one', async () => {
    const { request } = await seeded();
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
    for (const path of [`${ROOT_A}/Notifications.xml?Log=0`, `${ROOT_A}/Notifications?Log=0`]) {
      const res = await request(path);
      expect(res.headers.get('Content-Type')).toContain('application/xml');
      const list = parser.parse(await res.text()).RestcommResponse.Notifications;
      expect(list).toMatchObject({ '@total': '2', '@pagesize': '50', '@nextpageuri': 'null' });
      expect(list.Notification.map((n: { Sid: string }) => n.Sid)).toEqual([note(2).sid, note(3).sid]);
      expect(list.Notification[0]).toMatchObject({
        CallSid: call(2).sid,
        Log: '0',
        ErrorCode: '11205',
        MessageText: 'message 2',
        MessageDate: 'Tue, 05 Mar 2024 12:00:02 +0000',
        ApiVersion: '2012-04-24',
      });
    }
  });

  it('filters by CallSid, Log and MessageDate, together or apart', async () => {
    const { json } = await seeded();
    const sids = async (q: string) => sidsOf((await json(`${ROOT_A}/Notifications.json?${q}`)).body);
    expect(await sids(`CallSid=${call(1).sid}`)).toEqual([note(1).sid, note(3).sid]);
    expect(await sids('Log=0')).toEqual([note(2).sid, note(3).sid]);
    expect(await sids('Log=1')).toEqual([note(1).sid, note(4).sid]);
    expect(await sids(`Log=0&CallSid=${call(1).sid}`)).toEqual([note(3).sid]);
    // A date keeps its whole day, a date-time its whole second.
    expect(await sids('MessageDate=2024-03-05')).toEqual([note(1).sid, note(2).sid, note(3).sid]);
    expect(await sids('MessageDate=2024-03-06')).toEqual([note(4).sid]);
    expect(await sids('MessageDate=2024-03-05T12:00:02')).toEqual([note(2).sid]);
    expect(await sids('MessageDate=2024-03-07')).toEqual([]);
    expect(await sids(`CallSid=${callB.sid}`)).toEqual([]);
  });

  it.each([
    ['Log=2', 'Log'],
    ['Log=', 'Log'],
    ['Log=error', 'Log'],
    ['MessageDate=2024-3-5', 'MessageDate'],
    ['MessageDate=2024-02-30', 'MessageDate'],
    ['MessageDate=2024-03-05T12:00', 'MessageDate'],
    ['PageSize=0', 'PageSize'],
    ['Page=-1', 'Page'],
    ['AfterSid=NO-1', 'AfterSid'],
  ])('answers 400 naming the parameter for %s', async (query, parameter) => {
    const { json } = await seeded();
    for (const path of ['Notifications.json', `Calls/${call(1).sid}/Notifications.json`]) {
      const res = await json(`${ROOT_A}/${path}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'invalid-parameter', parameter });
    }
  });

  it('pages with links that keep the filters and an AfterSid that survives inserts', async () => {
    const { json, store } = await seeded();
    const first = await json(`${ROOT_A}/Notifications.json?Log=1&PageSize=1`);
    expect(first.body).toMatchObject({ total: 2, num_pages: 2, previous_page_uri: 'null' });
    expect(sidsOf(first.body)).toEqual([note(1).sid]);
    const next = first.body.next_page_uri as string;
    expect(next).toBe(`${ROOT_A}/Notifications.json?Log=1&Page=1&PageSize=1&AfterSid=${note(1).sid}`);
    // A notification created before the page's last one would shift a plain Page=1 window.
    await store.notifications.put(note(0, { log: 1, dateCreated: Date.UTC(2024, 2, 5, 11) }));
    const second = await json(next);
    expect(sidsOf(second.body)).toEqual([note(4).sid]);
    // Three match now; the page still starts right after the sid the link names.
    expect(second.body).toMatchObject({ page: 1, total: 3, start: '2', end: '2' });
    const third = await json(second.body.next_page_uri as string);
    expect(sidsOf(third.body)).toEqual([]);
    const past = await json(`${ROOT_A}/Notifications.json?Page=9&PageSize=2`);
    expect(past.status).toBe(200);
    expect(sidsOf(past.body)).toEqual([]);
  });

  it("lists one call's notifications under the call's own link", async () => {
    const { json, request } = await seeded();
    const record = await json(`${ROOT_A}/Calls/${call(1).sid}.json`);
    const link = (record.body.subresource_uris as { notifications: string }).notifications;
    expect(link).toBe(`/2012-04-24/Accounts/${ACCOUNT_A}/Calls/${call(1).sid}/Notifications.json`);
    const scoped = await json(link);
    expect(scoped.status).toBe(200);
    expect(sidsOf(scoped.body)).toEqual([note(1).sid, note(3).sid]);
    // The path's call wins over a CallSid in the query; the other filters apply.
    const filtered = await json(`${link}?CallSid=${call(2).sid}&Log=1`);
    expect(sidsOf(filtered.body)).toEqual([note(1).sid]);
    const xml = await (await request(`${ROOT_A}/Calls/${call(1).sid}/Notifications.xml`)).text();
    expect(xml).toContain('<Notifications page="0"');
    expect(xml).toContain(`<Sid>${note(3).sid}</Sid>`);
    expect((await json(`${ROOT_A}/Calls/CA${'f'.repeat(32)}/Notifications.json`)).status).toBe(404);
    expect((await json(`${ROOT_A}/Calls/${callB.sid}/Notifications.json`)).status).toBe(404);
  });

  it('gets one notification as JSON or XML', async () => {
    const { json, request } = await seeded();
    const one = await json(`${ROOT_A}/Notifications/${note(2).sid}.json`);
    expect(one.body).toMatchObject({ sid: note(2).sid, error_code: '11205', log: 0 });
    const parser = new XMLParser({ parseTagValue: false });
    for (const suffix of ['.xml', '']) {
      const res = await request(`${ROOT_A}/Notifications/${note(2).sid}${suffix}`);
      expect(res.status).toBe(200);
      const rec = parser.parse(await res.text()).RestcommResponse.Notification;
      expect(rec).toMatchObject({ Sid: note(2).sid, ErrorCode: '11205', MoreInfo: '', RequestMethod: '' });
      expect(rec.Uri).toBe(`/2012-04-24/Accounts/${ACCOUNT_A}/Notifications/${note(2).sid}.json`);
    }
    const unknown = await json(`${ROOT_A}/Notifications/NO${'f'.repeat(32)}.json`);
    expect(unknown).toMatchObject({ status: 404, body: { kind: 'not-found' } });
  });

  it('needs credentials and keeps each account to its own notifications', async () => {
    const { json } = await seeded();
    const paths = [
      'Notifications.json',
      `Notifications/${note(1).sid}.json`,
      `Calls/${call(1).sid}/Notifications.json`,
    ];
    for (const path of paths) {
      expect((await json(`${ROOT_A}/${path}`, { auth: null })).status).toBe(401);
      expect((await json(`${ROOT_A}/${path}`, { auth: AUTH_B })).status).toBe(403);
    }
    // Through B's own path, A's records read as unknown.
    for (const path of [`Notifications/${note(1).sid}.json`, `Calls/${call(1).sid}/Notifications.json`]) {
      expect((await json(`${ROOT_B}/${path}`, { auth: AUTH_B })).status).toBe(404);
    }
    const own = await json(`${ROOT_B}/Notifications.json`, { auth: AUTH_B });
    expect(sidsOf(own.body)).toEqual([note(5).sid]);
    expect((await json(`${ROOT_A}/Notifications/${note(5).sid}.json`)).status).toBe(404);
    // The same routes answer without the /platform prefix.
    const bare = await json(`/2012-04-24/Accounts/${ACCOUNT_A}/Notifications.json?Log=0`, { auth: AUTH_A });
    expect(sidsOf(bare.body)).toEqual([note(2).sid, note(3).sid]);
  });
});

describe.each(stores)('notifications of engine calls over the %s store', (_name, open) => {
  it("lists a failed document fetch under the call record's notifications link", async () => {
    const store = await open();
    await store.accounts.put(account(ACCOUNT_A));
    await store.accounts.put(account(ACCOUNT_B));
    const errors: unknown[] = [];
    const built = await createEngineApp({
      store,
      baseUrl: BASE,
      clock: 'virtual',
      seed: 3,
      epoch: Date.UTC(2024, 2, 5, 12),
      onError: (e) => errors.push(e),
    });
    opened.push(built);
    built.engine.registerHandler('http://app.test/missing', () => ({
      status: 404,
      contentType: 'text/plain',
      body: 'no such document',
    }));
    const get = async (path: string, auth = AUTH_A) => {
      const res = await built.app.fetch(new Request(BASE + path, { headers: { Authorization: auth } }));
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const placed = await built.app.fetch(
      new Request(`${BASE}${ROOT_A}/Calls.json`, {
        method: 'POST',
        headers: { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ From: '+15551111', To: '+15552222', Url: 'http://app.test/missing' }),
      }),
    );
    expect(placed.status).toBe(200);
    const sid = ((await placed.json()) as { sid: string }).sid;
    const advanced = await built.app.fetch(
      new Request(`${BASE}/sim/Advance`, {
        method: 'POST',
        headers: { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'Seconds=5',
      }),
    );
    expect(advanced.status).toBe(200);

    const record = await get(`${ROOT_A}/Calls/${sid}.json`);
    const link = (record.body.subresource_uris as { notifications: string }).notifications;
    expect(link).toBe(`/2012-04-24/Accounts/${ACCOUNT_A}/Calls/${sid}/Notifications.json`);
    const listed = await get(link);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 1 });
    const [notification] = listed.body.notifications as Array<Record<string, unknown>>;
    expect(notification).toMatchObject({
      account_sid: ACCOUNT_A,
      call_sid: sid,
      log: 1,
      error_code: '21402',
      request_url: 'http://app.test/missing',
      request_method: '',
    });
    expect(String(notification.sid)).toMatch(/^NO/);
    expect(notification.message_text).toMatch(/404/);
    const one = await get(notification.uri as string);
    expect(one.body).toEqual(notification);
    expect((await get(`${ROOT_A}/Notifications.json?Log=1&CallSid=${sid}`)).body.total).toBe(1);
    expect((await get(link, AUTH_B)).status).toBe(403);
    expect(errors).toEqual([]);
  });
});
