import { describe, expect, it } from 'vitest';
import type { GatherRecord } from '../../src/engine/records.js';
import { organizationSid } from '../../src/engine/sids.js';
import { ACCOUNT_A, ACCOUNT_B, call, recording, wav } from '../store/fixtures.js';
import { AUTH_B, BASE, basic, ROOT_A, setup } from './harness.js';

const gather = (n: number, kind: 'dtmf' | 'speech', over: Partial<GatherRecord> = {}): GatherRecord => {
  const base = {
    sid: `GA${n.toString(16).padStart(32, '0')}`,
    accountSid: ACCOUNT_A,
    callSid: call(n % 2).sid,
    dateCreated: Date.UTC(2024, 2, 5 + (n % 3), 10, 0, n),
    preTimeout: 5,
    postTimeout: 3,
    actionOnEmptyResult: n % 2 === 0,
    status: 'completed' as const,
    reason: '',
    apiVersion: '2012-04-24',
  };
  const rec: GatherRecord =
    kind === 'dtmf'
      ? { ...base, kind, digitsCount: 3, digits: '123' }
      : {
          ...base,
          kind,
          provider: 'sim',
          language: 'en-US',
          hints: 'yes,no',
          duration: 2,
          speechResult: 'yes',
        };
  return { ...rec, ...over } as GatherRecord;
};

describe('authentication and isolation', () => {
  it.each([
    ['no credentials', null],
    ['a wrong token', basic(ACCOUNT_A, 'wrong-token')],
    ['an unknown account', basic(`AC${'c'.repeat(32)}`, 'x')],
    ['a malformed header', 'Basic !!!'],
    ['another scheme', 'Bearer abc'],
  ])('answers 401 for %s', async (_what, auth) => {
    const { request } = await setup();
    const res = await request(`${ROOT_A}/Calls.json`, { auth });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toContain('Basic');
  });

  it('answers 403 on another account path and 404 for its record through the own path', async () => {
    const { store, json } = await setup();
    await store.calls.put(call(1));
    await store.recordings.put(recording(1), wav(4));
    const forbidden = await json(`${ROOT_A}/Calls.json`, { auth: AUTH_B });
    expect(forbidden).toMatchObject({ status: 403, body: { code: 20403, status: 403, kind: 'forbidden' } });
    expect((await json(`${ROOT_A}/Recordings/${recording(1).sid}.json`, { auth: AUTH_B })).status).toBe(403);
    const rootB = `/platform/2012-04-24/Accounts/${ACCOUNT_B}`;
    expect((await json(`${rootB}/Calls/${call(1).sid}.json`, { auth: AUTH_B })).status).toBe(404);
    expect((await json(`${rootB}/Calls.json`, { auth: AUTH_B })).body.total).toBe(0);
    const del = await json(`${rootB}/Recordings/${recording(1).sid}.json`, {
      auth: AUTH_B,
      method: 'DELETE',
    });
    expect(del.status).toBe(404);
    expect(await store.recordings.get(ACCOUNT_A, recording(1).sid)).toBeDefined();
  });

  it('answers unknown routes with a JSON 404 and oversize bodies with 413', async () => {
    const { json, request, form } = await setup();
    expect((await json(`${ROOT_A}/Nothing.json`)).status).toBe(404);
    const res = await request(
      `${ROOT_A}/Calls.json`,
      form({ From: '+1', To: '+2', Url: 'http://x/', Pad: 'x'.repeat(5000) }),
    );
    expect(res.status).toBe(413);
  });
});

describe('Recordings', () => {
  async function seeded() {
    const h = await setup();
    await h.store.calls.putMany([call(1), call(2)]);
    for (const n of [1, 2, 3])
      await h.store.recordings.put(
        recording(n, { callSid: call(n === 3 ? 1 : n).sid, duration: n * 1.25 }),
        wav(100 * n),
      );
    await h.store.recordings.put(recording(9, { accountSid: ACCOUNT_B }), wav(5));
    return h;
  }

  it('lists, filters and sorts with file URIs under the base URL', async () => {
    const { json } = await seeded();
    const { body } = await json(`${ROOT_A}/Recordings.json`);
    expect(body).toMatchObject({ total: 3, page_size: 50 });
    const first = (body.recordings as Array<Record<string, unknown>>)[0];
    expect(first).toMatchObject({
      sid: recording(1).sid,
      call_sid: call(1).sid,
      duration: '1.25',
      date_created: 'Tue, 05 Mar 2024 12:01:00 +0000',
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/Recordings/${recording(1).sid}.json`,
      file_uri: `${BASE}/platform/2012-04-24/Accounts/${ACCOUNT_A}/Recordings/${recording(1).sid}.wav`,
    });
    const byCall = await json(`${ROOT_A}/Recordings.json?CallSid=${call(1).sid}&SortBy=Duration:desc`);
    expect((byCall.body.recordings as Array<{ sid: string }>).map((r) => r.sid)).toEqual([
      recording(3).sid,
      recording(1).sid,
    ]);
    const late = await json(
      `${ROOT_A}/Recordings.json?StartTime=2024-03-05T12:02:00&EndTime=2024-03-05T12:02:59`,
    );
    expect((late.body.recordings as Array<{ sid: string }>).map((r) => r.sid)).toEqual([recording(2).sid]);
    // A date alone is its midnight, so EndTime=2024-03-05 ends before these noon recordings.
    expect((await json(`${ROOT_A}/Recordings.json?EndTime=2024-03-05`)).body.total).toBe(0);
    expect((await json(`${ROOT_A}/Recordings.json?EndTime=2024-03-06`)).body.total).toBe(3);
    expect((await json(`${ROOT_A}/Recordings.json?SortBy=To:asc`)).status).toBe(400);
    expect((await json(`${ROOT_A}/Recordings.json?StartTime=2024-3-5`)).status).toBe(400);
  });

  it('serves the deprecated call-scoped list', async () => {
    const { json } = await seeded();
    const { body } = await json(`${ROOT_A}/Calls/${call(1).sid}/Recordings.json`);
    expect((body.recordings as Array<{ sid: string }>).map((r) => r.sid)).toEqual([
      recording(1).sid,
      recording(3).sid,
    ]);
    expect((await json(`${ROOT_A}/Calls/CAnope/Recordings.json`)).status).toBe(404);
  });

  it('gets one recording as JSON or XML', async () => {
    const { json, request } = await seeded();
    expect((await json(`${ROOT_A}/Recordings/${recording(2).sid}.json`)).body.duration).toBe('2.5');
    const xml = await (await request(`${ROOT_A}/Recordings/${recording(2).sid}.xml`)).text();
    expect(xml).toContain('<Duration>2.5</Duration>');
    expect(xml).toContain('<FileUri>');
  });

  it('downloads the WAV without authentication, with range requests', async () => {
    const { request } = await seeded();
    const path = `${ROOT_A}/Recordings/${recording(2).sid}.wav`;
    const full = await request(path, { auth: null });
    expect(full.status).toBe(200);
    expect(full.headers.get('Content-Type')).toBe('audio/wav');
    // A download: saved, never shown, and never taken for another type.
    expect(full.headers.get('Content-Disposition')).toBe(
      `attachment; filename="${recording(2).sid}.wav"; filename*=UTF-8''${recording(2).sid}.wav`,
    );
    expect(full.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await full.arrayBuffer())).toEqual(wav(200));
    const part = await request(path, { auth: null, headers: { Range: 'bytes=0-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('Content-Disposition')).toMatch(/^attachment; /);
    expect(part.headers.get('Content-Range')).toBe(`bytes 0-11/${44 + 400}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe(
      'RIFF' + Buffer.from(wav(200).slice(4, 8)).toString('latin1') + 'WAVE',
    );
    const tail = await request(path, { auth: null, headers: { Range: 'bytes=-4' } });
    expect((await tail.arrayBuffer()).byteLength).toBe(4);
    expect((await request(path, { auth: null, headers: { Range: 'bytes=9999-' } })).status).toBe(416);
    expect((await request(`${ROOT_A}/Recordings/${recording(9).sid}.wav`, { auth: null })).status).toBe(404);
  });

  it('deletes the record and its audio', async () => {
    const { request, store } = await seeded();
    const res = await request(`${ROOT_A}/Recordings/${recording(1).sid}.json`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await store.recordings.wav(ACCOUNT_A, recording(1).sid)).toBeUndefined();
    expect((await request(`${ROOT_A}/Recordings/${recording(1).sid}.wav`, { auth: null })).status).toBe(404);
    expect(
      (await request(`${ROOT_A}/Recordings/${recording(1).sid}.json`, { method: 'DELETE' })).status,
    ).toBe(404);
  });
});

describe('Gathers', () => {
  async function seeded() {
    const h = await setup();
    for (let n = 0; n < 6; n++) await h.store.gathers.put(gather(n, n < 4 ? 'dtmf' : 'speech'));
    await h.store.gathers.put(gather(20, 'dtmf', { accountSid: ACCOUNT_B }));
    return h;
  }

  it('lists DTMF gathers with SPEC fields, filters by date and call', async () => {
    const { json } = await seeded();
    const { status, body } = await json(`${ROOT_A}/Gathers/DTMF`);
    expect(status).toBe(200);
    expect(body.total).toBe(4);
    expect(body).not.toHaveProperty('limit');
    const g = (body.gathers as Array<Record<string, unknown>>)[0];
    expect(g).toEqual({
      sid: gather(0, 'dtmf').sid,
      date_created: '2024-03-05T10:00:00.000Z',
      account_sid: ACCOUNT_A,
      // A record stored without it still names the account's organization.
      org_sid: organizationSid(ACCOUNT_A),
      call_sid: call(0).sid,
      preTimeout: 5,
      postTimeout: 3,
      actionOnEmptyResult: 'true',
      digits_count: 3,
      status: 'completed',
      reason: '',
      api_version: '2012-04-24',
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/Gathers/DTMF/${gather(0, 'dtmf').sid}.json`,
    });
    const day = await json(`${ROOT_A}/Gathers/DTMF.json?DateCreated=2024-03-05`);
    expect((day.body.gathers as Array<{ sid: string }>).map((x) => x.sid)).toEqual([
      gather(0, 'dtmf').sid,
      gather(3, 'dtmf').sid,
    ]);
    const second = await json(`${ROOT_A}/Gathers/DTMF?DateCreated=2024-03-06T10:00:01`);
    expect(second.body.total).toBe(1);
    const byCall = await json(`${ROOT_A}/Gathers/DTMF?CallSid=${call(1).sid}`);
    expect(byCall.body.total).toBe(2);
  });

  it('lists and gets speech gathers with their ASR fields', async () => {
    const { json } = await seeded();
    const { body } = await json(`${ROOT_A}/Gathers/Speech`);
    expect(body.total).toBe(2);
    const one = await json(`${ROOT_A}/Gathers/Speech/${gather(4, 'speech').sid}`);
    expect(one.body).toMatchObject({ provider: 'sim', language: 'en-US', hints: 'yes,no', duration: 2 });
    expect(one.body).not.toHaveProperty('digits_count');
    expect((await json(`${ROOT_A}/Gathers/DTMF/${gather(4, 'speech').sid}`)).status).toBe(404);
    expect((await json(`${ROOT_A}/Gathers/DTMF/${gather(20, 'dtmf').sid}`)).status).toBe(404);
  });

  it('refuses malformed dates (400) and XML (406)', async () => {
    const { json, request } = await seeded();
    for (const bad of ['2024-03-5', '2024-03-05T10:00', '05/03/2024', '2024-02-30']) {
      const res = await json(`${ROOT_A}/Gathers/DTMF?DateCreated=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.parameter).toBe('DateCreated');
    }
    expect((await request(`${ROOT_A}/Gathers/Speech.xml`)).status).toBe(406);
  });
});

describe('Applications rename', () => {
  it('renames and returns the SPEC application record', async () => {
    const { store, json, form } = await setup();
    const sid = `AP${'1'.repeat(32)}`;
    await store.applications.put({
      sid,
      accountSid: ACCOUNT_A,
      friendlyName: 'old',
      kind: 'voice',
      voiceCallerIdLookup: false,
      rcmlUrl: `/visual-designer/services/apps/${sid}/controller`,
      apiVersion: '2012-04-24',
      dateCreated: 0,
      dateUpdated: 0,
    });
    const { status, body } = await json(
      `${ROOT_A}/Applications/${sid}.json`,
      form({ FriendlyName: 'Main IVR' }, 'PUT'),
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      sid,
      date_created: 'Thu, 01 Jan 1970 00:00:00 +0000',
      date_updated: 'Sat, 01 Jun 2024 00:00:00 +0000',
      friendly_name: 'Main IVR',
      account_sid: ACCOUNT_A,
      api_version: '2012-04-24',
      voice_caller_id_lookup: false,
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/Applications/${sid}.json`,
      rcml_url: `/visual-designer/services/apps/${sid}/controller`,
      kind: 'voice',
    });
    expect((await store.applications.get(ACCOUNT_A, sid))?.friendlyName).toBe('Main IVR');
    const missing = await json(`${ROOT_A}/Applications/${sid}.json`, form({}, 'PUT'));
    expect(missing).toMatchObject({ status: 400, body: { parameter: 'FriendlyName' } });
    expect(
      (await json(`${ROOT_A}/Applications/APnope.json`, form({ FriendlyName: 'x' }, 'PUT'))).status,
    ).toBe(404);
  });
});
