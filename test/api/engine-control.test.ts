import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { CallControlError } from '../../src/api/platform/call-control.js';
import { organizationSid } from '../../src/engine/sids.js';
import type { RcmlHandler } from '../../src/engine/types.js';
import { readWavInfo } from '../../src/engine/wav.js';
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

/** The REST app over a real engine on the virtual clock, a memory store, accounts A and B. */
async function server(clock: 'virtual' | 'real' = 'virtual') {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const errors: unknown[] = [];
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock,
    seed: 7,
    epoch: Date.UTC(2024, 2, 5, 12),
    numbers: { '+15550100': { voiceUrl: 'http://app.test/ivr' } },
    onError: (e) => errors.push(e),
  });
  opened.push(built);
  const { app, engine } = built;
  const requested: string[] = [];
  const serve = (path: string, handler: RcmlHandler) =>
    engine.registerHandler(`http://app.test${path}`, (req) => {
      requested.push(`${path} ${req.params.Digits ?? ''}`.trim());
      return handler(req);
    });
  serve('/ivr', () => xml('<Gather numDigits="1" action="/after"><Say>Press 1</Say></Gather>'));
  serve('/after', () => xml('<Record maxLength="3"/>'));
  serve('/wait', () => xml('<Pause length="60"/>'));
  serve('/bye', () => xml('<Say>Bye</Say>'));
  serve('/broken', () => ({ status: 500, contentType: 'text/plain', body: 'down' }));
  serve('/room', () => xml('<Dial><Conference startConferenceOnEnter="true">room</Conference></Dial>'));

  /** A GET, or a form POST when fields are given; answers the status and the JSON body. */
  const call = async (path: string, fields?: Record<string, string>, auth = AUTH_A) => {
    const init: RequestInit = { headers: { Authorization: auth } };
    if (fields) {
      init.method = 'POST';
      init.headers = { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' };
      init.body = new URLSearchParams(fields).toString();
    }
    const res = await app.fetch(new Request(BASE + path, init));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const place = async (url: string, to = '+15552222', as: 'A' | 'B' = 'A') => {
    const root = as === 'A' ? ROOT_A : ROOT_B;
    const res = await call(
      `${root}/Calls.json`,
      { From: '+15551111', To: to, Url: url },
      as === 'A' ? AUTH_A : AUTH_B,
    );
    expect(res.status).toBe(200);
    return res.body.sid as string;
  };
  const advance = (seconds: number) => call('/sim/Advance', { Seconds: String(seconds) });
  return { ...built, store, errors, requested, call, place, advance };
}

describe('engine-backed REST API', () => {
  it('runs a placed call and lists its call, gather and recording records', async () => {
    const s = await server();
    const sid = await s.place('http://app.test/ivr');
    expect((await s.store.calls.get(ACCOUNT_A, sid))?.status).toBe('queued');
    // Who ended a call (an extension field) is empty while it is live.
    expect((await s.call(`${ROOT_A}/Calls/${sid}.json`)).body.ended_by).toBe('');
    await s.advance(1);
    expect((await s.call(`/sim/Calls/${sid}/Digits`, { Digits: '1' })).status).toBe(200);
    await s.advance(10);
    expect(s.requested).toEqual(['/ivr', '/after 1']);

    const calls = await s.call(`${ROOT_A}/Calls.json`);
    expect(calls.body.calls).toMatchObject([
      { sid, status: 'completed', account_sid: ACCOUNT_A, ended_by: 'application' },
    ]);
    const gathers = await s.call(`${ROOT_A}/Gathers/DTMF.json`);
    expect(gathers.body.gathers).toMatchObject([{ call_sid: sid, digits_count: 1, status: 'completed' }]);
    // The engine writes the organization into the record itself.
    const [stored] = (
      await s.store.gathers.list({ accountSid: ACCOUNT_A, kind: 'dtmf', offset: 0, limit: 10 })
    ).items;
    expect(stored.orgSid).toMatch(/^OR[0-9a-f]{32}$/);
    expect(stored.orgSid).toBe(organizationSid(ACCOUNT_A));
    const recordings = await s.call(`${ROOT_A}/Recordings.json`);
    const [rec] = recordings.body.recordings as unknown as Array<Record<string, string>>;
    expect(rec).toMatchObject({ call_sid: sid, duration: '3.0' });
    expect(rec.file_uri).toBe(`${BASE}/platform/2012-04-24/Accounts/${ACCOUNT_A}/Recordings/${rec.sid}.wav`);
    const wav = await s.app.fetch(new Request(rec.file_uri));
    expect(wav.status).toBe(200);
    expect(readWavInfo(new Uint8Array(await wav.arrayBuffer()))?.duration).toBe(3);
    expect(s.errors).toEqual([]);
  });

  it('redirects a live call with Url', async () => {
    const s = await server();
    const sid = await s.place('http://app.test/wait');
    await s.advance(1);
    const res = await s.call(`${ROOT_A}/Calls/${sid}.json`, { Url: 'http://app.test/bye' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('in-progress');
    await s.advance(5);
    expect(s.requested).toEqual(['/wait', '/bye']);
    expect(await s.store.calls.get(ACCOUNT_A, sid)).toMatchObject({ status: 'completed', duration: 2 });
  });

  it('hangs up with Status=completed and refuses to modify an ended call', async () => {
    const s = await server();
    const sid = await s.place('http://app.test/wait');
    await s.advance(1);
    const done = await s.call(`${ROOT_A}/Calls.json/${sid}`, { Status: 'completed' });
    expect(done.body.status).toBe('completed');
    expect((await s.call(`${ROOT_A}/Calls/${sid}.json`)).body.ended_by).toBe('api');
    expect((await s.store.calls.get(ACCOUNT_A, sid))?.status).toBe('completed');
    const again = await s.call(`${ROOT_A}/Calls/${sid}.json`, { Status: 'completed' });
    expect(again.status).toBe(409);
    expect(again.body.kind).toBe('not-live');
  });

  it('cancels only a call that has not been answered', async () => {
    const s = await server();
    const answered = await s.place('http://app.test/wait');
    const slowParty = await s.app.fetch(
      new Request(`${BASE}/sim/Parties`, {
        method: 'POST',
        headers: { Authorization: AUTH_A, 'Content-Type': 'application/json' },
        body: JSON.stringify({ address: '+15553333', answerAfter: 30 }),
      }),
    );
    expect(slowParty.status).toBe(200);
    const ringing = await s.place('http://app.test/wait', '+15553333');
    await s.advance(1);
    const kept = await s.call(`${ROOT_A}/Calls/${answered}.json`, { Status: 'canceled' });
    expect(kept.body.status).toBe('in-progress');
    const canceled = await s.call(`${ROOT_A}/Calls/${ringing}.json`, { Status: 'canceled' });
    expect(canceled.body.status).toBe('canceled');
    expect((await s.store.calls.get(ACCOUNT_A, ringing))?.status).toBe('canceled');
  });

  it('mutes a conference participant of the account only', async () => {
    const s = await server();
    const first = await s.place('http://app.test/room');
    await s.place('http://app.test/room', '+15553333');
    await s.advance(2);
    const [room] = s.engine.listConferences();
    expect(room.participants).toHaveLength(2);
    const path = `/Conferences/${room.sid}/Participants/${first}.json`;
    expect((await s.call(`${ROOT_B}${path}`, { Mute: 'true' }, AUTH_B)).status).toBe(404);
    const muted = await s.call(`${ROOT_A}${path}`, { Mute: 'true' });
    expect(muted.status).toBe(200);
    expect(muted.body.sid).toBe(first);
    expect(s.engine.getConference(room.sid)?.participants.find((p) => p.callSid === first)?.muted).toBe(true);
    const stranger = await s.call(`${ROOT_A}/Conferences/CF${'0'.repeat(32)}/Participants/${first}.json`, {
      Mute: 'false',
    });
    expect(stranger.status).toBe(404);
  });

  it('keeps accounts apart', async () => {
    const s = await server();
    const sid = await s.place('http://app.test/wait');
    await s.advance(1);
    expect((await s.call(`${ROOT_B}/Calls/${sid}.json`, undefined, AUTH_B)).status).toBe(404);
    expect((await s.call(`${ROOT_B}/Calls/${sid}.json`, { Status: 'completed' }, AUTH_B)).status).toBe(404);
    expect((await s.call(`/sim/Calls/${sid}/Digits`, { Digits: '1' }, AUTH_B)).status).toBe(404);
    // The port itself checks ownership, whatever the route did before.
    await expect(
      s.callControl.modifyCall(ACCOUNT_B, sid, {
        status: 'completed',
        method: 'POST',
        fallbackMethod: 'POST',
        statusCallbackMethod: 'POST',
        childCallMode: 'Hangup',
      }),
    ).rejects.toMatchObject({ code: 'not-found' });
    await expect(s.callControl.sim?.sendDigits(ACCOUNT_B, sid, '1')).rejects.toBeInstanceOf(CallControlError);
    expect((await s.store.calls.get(ACCOUNT_A, sid))?.status).toBe('in-progress');
    const other = await s.place('http://app.test/wait', '+15552222', 'B');
    expect((await s.store.calls.get(ACCOUNT_B, other))?.accountSid).toBe(ACCOUNT_B);
    expect((await s.call(`${ROOT_A}/Calls.json`)).body.calls).toHaveLength(1);
  });

  it("files a notification reported after the call ended under the call's account", async () => {
    const s = await server();
    const res = await s.call(
      `${ROOT_B}/Calls.json`,
      { From: '+1', To: '+2', Url: 'http://app.test/bye', StatusCallback: 'http://app.test/broken' },
      AUTH_B,
    );
    await s.advance(5);
    expect(s.requested).toEqual(['/bye', '/broken']);
    const notes = (await s.store.notifications.list({ accountSid: ACCOUNT_B, offset: 0, limit: 10 })).items;
    expect(notes).toMatchObject([{ code: '11205', callSid: res.body.sid }]);
    expect((await s.store.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 10 })).total).toBe(0);
  });

  it('places inbound calls through /sim and reports the engine clock', async () => {
    const s = await server();
    const res = await s.call('/sim/Calls', { From: '+15551111', To: '+15550100' }, AUTH_B);
    expect(res.status).toBe(200);
    const sid = res.body.sid as string;
    expect(res.body.account_sid).toBe(ACCOUNT_B);
    const now = await s.advance(1.5);
    expect(now.body.now).toBe('2024-03-05T12:00:01.500Z');
    await s.call(`/sim/Calls/${sid}/Digits`, { Digits: '1' }, AUTH_B);
    await s.advance(10);
    expect((await s.store.calls.get(ACCOUNT_B, sid))?.status).toBe('completed');
    expect(
      (await s.store.recordings.list({ accountSid: ACCOUNT_B, offset: 0, limit: 10 })).items,
    ).toHaveLength(1);
    // An unrouted number fails the call; its notification belongs to the caller's account.
    const lost = await s.call('/sim/Calls', { From: '+15551111', To: '+15559999' }, AUTH_B);
    expect(lost.body.status).toBe('failed');
    const notes = (await s.store.notifications.list({ accountSid: ACCOUNT_B, offset: 0, limit: 10 })).items;
    expect(notes.map((n) => n.code)).toEqual(['21403']);
  });

  it('refuses advancing a real clock with 409', async () => {
    const s = await server('real');
    const res = await s.advance(1);
    expect(res.status).toBe(409);
    expect(res.body.kind).toBe('clock-not-virtual');
    expect(String(res.body.message)).toMatch(/real clock/);
  });

  it('maps engine refusals to port errors naming the field', async () => {
    const s = await server();
    const request = {
      from: '+1',
      to: '+2',
      url: 'not a url',
      method: 'POST' as const,
      fallbackMethod: 'POST' as const,
      statusCallbackMethod: 'POST' as const,
      statusCallbackEvents: [],
      timeout: 60,
      sipHeaders: {},
    };
    await expect(s.callControl.createCall(ACCOUNT_A, request)).rejects.toMatchObject({
      code: 'invalid',
      parameter: 'Url',
    });
    await s.close();
    await expect(
      s.callControl.createCall(ACCOUNT_A, { ...request, url: 'http://app.test/ivr' }),
    ).rejects.toMatchObject({ code: 'unavailable' });
  });
});
