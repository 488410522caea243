import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_A, ACCOUNT_B, call } from '../store/fixtures.js';
import { ROOT_A, setup } from './harness.js';

type CallJson = Record<string, unknown> & { sid: string; duration: number; to: string; status: string };

async function seeded() {
  const h = await setup();
  await h.store.calls.putMany([
    ...Array.from({ length: 7 }, (_, i) =>
      call(i + 1, {
        to: i % 2 === 0 ? '+3' : '+4',
        from: i < 3 ? '+1' : 'client:alice',
        status: i === 6 ? 'busy' : 'completed',
        duration: (i * 5) % 7,
        direction: i === 0 ? 'inbound' : 'outbound-api',
        parentCallSid: i === 5 ? call(1).sid : undefined,
      }),
    ),
    call(50, { accountSid: ACCOUNT_B }),
  ]);
  return h;
}

const sids = (body: Record<string, unknown>) => (body.calls as CallJson[]).map((c) => c.sid);

describe('GET Calls', () => {
  it('lists the account calls in the SPEC envelope', async () => {
    const { json } = await seeded();
    const { status, body } = await json(`${ROOT_A}/Calls.json`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      page: 0,
      num_pages: 1,
      page_size: 50,
      total: 7,
      limit: 10000,
      start: '0',
      end: '6',
    });
    expect(body.previous_page_uri).toBe('null');
    expect(body.next_page_uri).toBe('null');
    expect(body.first_page_uri).toBe(`${ROOT_A}/Calls.json?Page=0&PageSize=50`);
    expect(sids(body)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => call(n).sid));
    const first = (body.calls as CallJson[])[0];
    expect(first).toMatchObject({
      sid: call(1).sid,
      account_sid: ACCOUNT_A,
      date_created: 'Tue, 05 Mar 2024 12:00:01 +0000',
      start_time: '2024-03-05T12:00:02.000Z',
      direction: 'inbound',
      api_version: '2012-04-24',
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/Calls/${call(1).sid}.json`,
      subresource_uris: {
        recordings: `/2012-04-24/Accounts/${ACCOUNT_A}/Calls/${call(1).sid}/Recordings.json`,
      },
    });
  });

  it('serves the same list without the /platform prefix', async () => {
    const { json } = await seeded();
    const { body } = await json(`/2012-04-24/Accounts/${ACCOUNT_A}/Calls.json`);
    expect(body.total).toBe(7);
  });

  it.each([
    ['To=%2B3', [1, 3, 5, 7]],
    ['From=client%3Aalice', [4, 5, 6, 7]],
    ['Status=busy', [7]],
    ['Status=canceled', []],
    [`ParentCallSid=${call(1).sid}`, [6]],
    ['StartTime=2024-03-05T12:00:05', [4, 5, 6, 7]],
    ['EndTime=2024-03-05T12:00:13', [1, 2]],
    // A date alone is its midnight (SPEC): these calls end at noon, after 2024-03-05T00:00:00.
    ['EndTime=2024-03-05', []],
    ['EndTime=2024-03-06', [1, 2, 3, 4, 5, 6, 7]],
    ['StartTime=2024-03-05', [1, 2, 3, 4, 5, 6, 7]],
    ['StartTime=2024-03-06', []],
    ['To=%2B3&Status=completed', [1, 3, 5]],
  ])('filters %s', async (query, expected) => {
    const { json } = await seeded();
    const { status, body } = await json(`${ROOT_A}/Calls.json?${query}`);
    expect(status).toBe(200);
    expect(sids(body)).toEqual(expected.map((n) => call(n).sid));
  });

  it.each([
    ['Duration:desc', 'duration', 'desc'],
    ['Duration', 'duration', 'asc'],
    ['To:asc', 'to', 'asc'],
    ['Direction:desc', 'direction', 'desc'],
    ['Status:asc', 'status', 'asc'],
    ['From:desc', 'from', 'desc'],
    ['DateCreated:desc', 'date_created', 'desc'],
  ])('sorts by %s', async (sortBy, field, order) => {
    const { json } = await seeded();
    const { body } = await json(`${ROOT_A}/Calls.json?SortBy=${sortBy}`);
    const calls = body.calls as CallJson[];
    const values =
      field === 'date_created'
        ? calls.map((c) => Date.parse(c[field] as string))
        : calls.map((c) => c[field] as string | number);
    const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(values).toEqual(order === 'asc' ? sorted : sorted.reverse());
  });

  it('pages with links, AfterSid in the next link, and a Limit cap', async () => {
    const { json } = await seeded();
    const p0 = (await json(`${ROOT_A}/Calls.json?PageSize=3&To=%2B3`)).body;
    expect(p0).toMatchObject({ page: 0, num_pages: 2, page_size: 3, total: 4, start: '0', end: '2' });
    expect(p0.next_page_uri).toBe(`${ROOT_A}/Calls.json?To=%2B3&Page=1&PageSize=3&AfterSid=${call(5).sid}`);
    expect(p0.last_page_uri).toBe(`${ROOT_A}/Calls.json?To=%2B3&Page=1&PageSize=3`);
    const p1 = (await json(p0.next_page_uri as string)).body;
    expect(p1).toMatchObject({ page: 1, start: '3', end: '3', next_page_uri: 'null' });
    expect(p1.previous_page_uri).toBe(`${ROOT_A}/Calls.json?To=%2B3&Page=0&PageSize=3`);
    expect(sids(p1)).toEqual([call(7).sid]);
    const beyond = (await json(`${ROOT_A}/Calls.json?PageSize=3&Page=9`)).body;
    expect(beyond.calls).toEqual([]);
    const capped = (await json(`${ROOT_A}/Calls.json?PageSize=2&Limit=3&Page=1`)).body;
    expect(capped).toMatchObject({ total: 3, num_pages: 2, limit: 3 });
    expect(sids(capped)).toEqual([call(3).sid]);
  });

  it('starts the page after AfterSid, so following next links neither repeats nor skips calls', async () => {
    const { json, store } = await seeded();
    const p0 = (await json(`${ROOT_A}/Calls.json?To=%2B3&SortBy=DateCreated:desc&PageSize=2`)).body;
    expect(sids(p0)).toEqual([call(7).sid, call(5).sid]);
    // A newer call arrives: it sorts first and shifts every position by one.
    await store.calls.put(call(8, { to: '+3' }));
    const p1 = (await json(p0.next_page_uri as string)).body;
    expect(sids(p1)).toEqual([call(3).sid, call(1).sid]);
    expect(p1).toMatchObject({ page: 1, total: 5, start: '3', end: '4' });
    // Without it, Page alone decides (and repeats call 5); a sid naming no call of the list too.
    const byPage = (await json(`${ROOT_A}/Calls.json?To=%2B3&SortBy=DateCreated:desc&PageSize=2&Page=1`))
      .body;
    expect(sids(byPage)).toEqual([call(5).sid, call(3).sid]);
    const unknown = await json(
      `${ROOT_A}/Calls.json?To=%2B3&SortBy=DateCreated:desc&PageSize=2&Page=1&AfterSid=CAgone`,
    );
    expect(sids(unknown.body)).toEqual(sids(byPage));
    const bad = await json(`${ROOT_A}/Calls.json?AfterSid=${encodeURIComponent('CA1; drop')}`);
    expect(bad).toMatchObject({ status: 400, body: { parameter: 'AfterSid' } });
    // The Limit cap still holds for a page found by AfterSid.
    const capped = (await json(`${ROOT_A}/Calls.json?PageSize=5&Limit=3&AfterSid=${call(1).sid}`)).body;
    expect(sids(capped)).toEqual([call(2).sid, call(3).sid]);
  });

  it('renders XML with the SPEC attribute names, also by default without a suffix', async () => {
    const { request } = await seeded();
    for (const path of [`${ROOT_A}/Calls.xml?PageSize=2`, `${ROOT_A}/Calls?PageSize=2`]) {
      const res = await request(path);
      expect(res.headers.get('Content-Type')).toContain('application/xml');
      const doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(await res.text());
      const list = doc.RestcommResponse.Calls;
      expect(list['@_total']).toBe('7');
      expect(list['@_nextpageuri']).toContain('AfterSid=');
      expect(list.Call[0]).toMatchObject({
        Sid: call(1).sid,
        AccountSid: ACCOUNT_A,
        Direction: 'inbound',
        Duration: '0',
      });
      expect(list.Call[0].SubresourceUris.Recordings).toContain('/Recordings.json');
    }
  });

  it.each([
    ['PageSize=0', 'PageSize'],
    ['PageSize=ten', 'PageSize'],
    ['Page=-1', 'Page'],
    ['Limit=0', 'Limit'],
    ['StartTime=2024-13-01', 'StartTime'],
    ['EndTime=2024-02-30T00:00:00', 'EndTime'],
    ['StartTime=yesterday', 'StartTime'],
    ['Status=ringingish', 'Status'],
    ['SortBy=Price:asc', 'SortBy'],
    ['SortBy=Duration:up', 'SortBy'],
  ])('answers 400 naming the parameter for %s', async (query, parameter) => {
    const { json, errors } = await seeded();
    const { status, body } = await json(`${ROOT_A}/Calls.json?${query}`);
    expect(status).toBe(400);
    expect(body.parameter).toBe(parameter);
    expect(body.message).toContain(parameter);
    expect(errors).toEqual([]);
  });
});

describe('GET Calls/{CallSid}', () => {
  it('returns one call as JSON or XML', async () => {
    const { json, request } = await seeded();
    const { status, body } = await json(`${ROOT_A}/Calls/${call(2).sid}.json`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ sid: call(2).sid, end_time: '2024-03-05T12:00:13.000Z', duration: 5 });
    const xml = await (await request(`${ROOT_A}/Calls/${call(2).sid}.xml`)).text();
    expect(xml).toContain(`<Call><Sid>${call(2).sid}</Sid>`);
  });

  it('answers 404 for unknown sids and for calls of another account', async () => {
    const { json } = await seeded();
    expect((await json(`${ROOT_A}/Calls/CAnope.json`)).status).toBe(404);
    const other = await json(`${ROOT_A}/Calls/${call(50).sid}.json`);
    expect(other.status).toBe(404);
    expect(other.body.message).toContain(call(50).sid);
  });

  it('renders empty start and end times for a call not yet answered', async () => {
    const { json, store } = await seeded();
    await store.calls.put(
      call(60, { status: 'ringing', startTime: undefined, endTime: undefined, duration: undefined }),
    );
    const { body } = await json(`${ROOT_A}/Calls/${call(60).sid}.json`);
    expect(body).toMatchObject({ start_time: '', end_time: '', duration: 0, status: 'ringing' });
  });
});
