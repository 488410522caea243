import { describe, expect, it } from 'vitest';
import {
  type CallControl,
  CallControlError,
  type CreateCallRequest,
  type ModifyCallRequest,
  type PartyBehaviour,
} from '../../src/api/platform/call-control.js';
import type { CallRecord } from '../../src/engine/records.js';
import type { Store } from '../../src/store/ports.js';
import { ACCOUNT_A, ACCOUNT_B, call } from '../store/fixtures.js';
import { ROOT_A, setup } from './harness.js';

/** A CallControl double that records what it was asked and writes calls to the store. */
function double(store: () => Store) {
  const seen: Array<[string, unknown]> = [];
  let now = 0;
  let next = 100;
  const control: CallControl = {
    createCall: async (accountSid, p: CreateCallRequest) => {
      seen.push(['create', p]);
      const c: CallRecord = call(next++, {
        accountSid,
        from: p.from,
        to: p.to,
        status: 'queued',
        startTime: undefined,
        endTime: undefined,
        duration: undefined,
      });
      await store().calls.put(c);
      return c;
    },
    modifyCall: async (accountSid, sid, p: ModifyCallRequest) => {
      seen.push(['modify', p]);
      const c = (await store().calls.get(accountSid, sid)) as CallRecord;
      if (c.status === 'completed') throw new CallControlError('not-live', `call ${sid} is not live`);
      return { ...c, status: p.status ?? c.status };
    },
    muteParticipant: async (accountSid, conf, sid, mute) => {
      seen.push(['mute', { conf, sid, mute }]);
      return (await store().calls.get(accountSid, sid)) as CallRecord;
    },
    sim: {
      incomingCall: async (accountSid, p) => {
        seen.push(['incoming', p]);
        const c = call(next++, {
          accountSid,
          direction: 'inbound',
          from: p.from,
          to: p.to,
          status: 'ringing',
        });
        await store().calls.put(c);
        return c;
      },
      setParty: async (_a, address, b: PartyBehaviour) => void seen.push(['party', { address, ...b }]),
      setNumber: async (_a, number, config) => void seen.push(['number', { number, ...config }]),
      sendDigits: async (_a, sid, digits) => void seen.push(['digits', { sid, digits }]),
      sendSpeech: async (_a, sid, text) => void seen.push(['speech', { sid, text }]),
      advance: async (ms) => {
        now += ms;
        return now;
      },
    },
  };
  return { control, seen };
}

async function withDouble() {
  let store: Store | undefined;
  const d = double(() => store as Store);
  const h = await setup(d.control);
  store = h.store;
  return { ...h, seen: d.seen };
}

describe('POST Calls', () => {
  it('validates the form and passes typed parameters to the engine', async () => {
    const { json, form, seen } = await withDouble();
    const { status, body } = await json(
      `${ROOT_A}/Calls.json`,
      form({
        From: '+15551230000',
        To: 'sip:bob@example.com?X-Team=blue',
        Url: 'http://127.0.0.1:9/app.xml',
        Method: 'get',
        StatusCallback: 'http://127.0.0.1:9/status',
        'X-Case': '42',
      }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      from: '+15551230000',
      to: 'sip:bob@example.com',
      status: 'queued',
      account_sid: ACCOUNT_A,
    });
    expect(seen[0]).toEqual([
      'create',
      {
        from: '+15551230000',
        to: 'sip:bob@example.com',
        url: 'http://127.0.0.1:9/app.xml',
        method: 'GET',
        fallbackUrl: undefined,
        fallbackMethod: 'POST',
        statusCallback: 'http://127.0.0.1:9/status',
        statusCallbackMethod: 'POST',
        statusCallbackEvents: ['completed'],
        timeout: 60,
        sipHeaders: { 'X-Team': 'blue', 'X-Case': '42' },
      },
    ]);
  });

  it.each([
    [{ To: '+2', Url: 'http://x/' }, 'From'],
    [{ From: '+1', Url: 'http://x/' }, 'To'],
    [{ From: '+1', To: 'bob', Url: 'http://x/' }, 'To'],
    [{ From: '+1', To: '+2' }, 'Url'],
    [{ From: '+1', To: '+2', Url: 'ftp://x/' }, 'Url'],
    [{ From: '+1', To: '+2', Url: 'http://x/', Method: 'PUT' }, 'Method'],
    [{ From: '+1', To: '+2', Url: 'http://x/', Timeout: 'soon' }, 'Timeout'],
    [{ From: '+1', To: '+2', Url: 'http://x/', Timeout: '0' }, 'Timeout'],
    [
      { From: '+1', To: '+2', Url: 'http://x/', StatusCallbackEvent: 'answered,hungup' },
      'StatusCallbackEvent',
    ],
    [{ From: '+1', To: '+2', Url: 'http://x/', FallbackUrl: 'nope' }, 'FallbackUrl'],
  ])('answers 400 naming the field for %j', async (fields, parameter) => {
    const { json, form, seen } = await withDouble();
    const { status, body } = await json(`${ROOT_A}/Calls.json`, form(fields as Record<string, string>));
    expect(status).toBe(400);
    expect(body.parameter).toBe(parameter);
    expect(seen).toEqual([]);
  });

  it('accepts client: destinations and explicit events', async () => {
    const { json, form, seen } = await withDouble();
    const res = await json(
      `${ROOT_A}/Calls.json`,
      form({
        From: '+1',
        To: 'client:alice',
        Url: 'https://x/',
        StatusCallbackEvent: 'ringing, answered',
        Timeout: '15',
      }),
    );
    expect(res.status).toBe(200);
    expect(seen[0][1]).toMatchObject({
      to: 'client:alice',
      statusCallbackEvents: ['ringing', 'answered'],
      timeout: 15,
    });
  });

  it('refuses malformed bodies', async () => {
    const { request } = await withDouble();
    const bad = await request(`${ROOT_A}/Calls.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{nope',
    });
    expect(bad.status).toBe(400);
    const xml = await request(`${ROOT_A}/Calls.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml' },
      body: '<x/>',
    });
    expect(xml.status).toBe(415);
  });
});

describe('POST Calls/{CallSid} (modify)', () => {
  it('modifies through both path spellings, mapping MoveConnectedCallLeg', async () => {
    const { json, form, store, seen } = await withDouble();
    await store.calls.put(call(1, { status: 'in-progress' }));
    const a = await json(`${ROOT_A}/Calls/${call(1).sid}.json`, form({ Status: 'completed' }));
    expect(a).toMatchObject({ status: 200, body: { status: 'completed' } });
    const b = await json(
      `${ROOT_A}/Calls.json/${call(1).sid}`,
      form({ Url: 'http://x/next', MoveConnectedCallLeg: 'true' }),
    );
    expect(b.status).toBe(200);
    expect(seen.map((s) => s[1])).toMatchObject([
      { status: 'completed', childCallMode: 'Hangup', method: 'POST' },
      { url: 'http://x/next', childCallMode: 'Move' },
    ]);
  });

  it('answers 400, 404 and the engine refusal (409) clearly', async () => {
    const { json, form, store } = await withDouble();
    await store.calls.put(call(1, { status: 'in-progress' }));
    await store.calls.put(call(2));
    await store.calls.put(call(3, { accountSid: ACCOUNT_B, status: 'in-progress' }));
    expect((await json(`${ROOT_A}/Calls/${call(1).sid}.json`, form({}))).status).toBe(400);
    expect(
      (await json(`${ROOT_A}/Calls/${call(1).sid}.json`, form({ Status: 'paused' }))).body.parameter,
    ).toBe('Status');
    expect((await json(`${ROOT_A}/Calls/${call(1).sid}.json`, form({ Mute: 'yes' }))).body.parameter).toBe(
      'Mute',
    );
    expect(
      (await json(`${ROOT_A}/Calls/${call(1).sid}.json`, form({ Url: 'http://x/', ChildCallMode: 'Keep' })))
        .body.parameter,
    ).toBe('ChildCallMode');
    expect((await json(`${ROOT_A}/Calls/${call(3).sid}.json`, form({ Status: 'completed' }))).status).toBe(
      404,
    );
    const ended = await json(`${ROOT_A}/Calls/${call(2).sid}.json`, form({ Status: 'completed' }));
    expect(ended).toMatchObject({ status: 409, body: { kind: 'not-live' } });
  });
});

describe('conference participant mute', () => {
  it('passes Mute to the engine and validates it', async () => {
    const { json, form, store, seen } = await withDouble();
    await store.calls.put(call(1, { status: 'in-progress' }));
    const path = `${ROOT_A}/Conferences/CF1/Participants/${call(1).sid}.json`;
    expect((await json(path, form({ Mute: 'true' }))).status).toBe(200);
    expect(seen).toEqual([['mute', { conf: 'CF1', sid: call(1).sid, mute: true }]]);
    expect((await json(path, form({ Mute: '1' }))).body.parameter).toBe('Mute');
    expect(
      (await json(`${ROOT_A}/Conferences/CF1/Participants/CAnope.json`, form({ Mute: 'true' }))).status,
    ).toBe(404);
  });
});

describe('/sim extension', () => {
  it('places inbound calls, sets parties, sends digits and speech, advances the clock', async () => {
    const { json, form, seen } = await withDouble();
    const placed = await json('/sim/Calls', form({ From: '+1', To: '+2' }));
    expect(placed).toMatchObject({ status: 200, body: { direction: 'inbound', from: '+1', to: '+2' } });
    const sid = placed.body.sid as string;
    const party = await json('/sim/Parties', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        address: '+2',
        outcome: 'answer',
        answerAfter: 2,
        digits: [{ at: 1, keys: '12#' }],
      }),
    });
    expect(party.status).toBe(200);
    expect((await json(`/sim/Calls/${sid}/Digits`, form({ Digits: '5#' }))).status).toBe(200);
    expect((await json(`/sim/Calls/${sid}/Speech`, form({ Text: 'sales please' }))).status).toBe(200);
    expect((await json('/sim/Advance', form({ Seconds: '1.5' }))).body).toEqual({
      now: '1970-01-01T00:00:01.500Z',
    });
    expect(seen.map((s) => s[0])).toEqual(['incoming', 'party', 'digits', 'speech']);
  });

  it('validates input and keeps accounts apart', async () => {
    const { json, form, store } = await withDouble();
    await store.calls.put(call(1, { accountSid: ACCOUNT_B, status: 'in-progress' }));
    expect((await json('/sim/Calls', form({ From: '+1' }))).body.parameter).toBe('To');
    expect((await json(`/sim/Calls/${call(1).sid}/Digits`, form({ Digits: '1' }))).status).toBe(404);
    const bad = await json('/sim/Parties', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address: '+2', answerAfter: -1 }),
    });
    expect(bad).toMatchObject({ status: 400, body: { parameter: 'answerAfter' } });
    expect((await json('/sim/Advance', form({ Seconds: 'later' }))).body.parameter).toBe('Seconds');
    expect((await json('/sim/Calls', { ...form({ From: '+1', To: '+2' }), auth: null })).status).toBe(401);
  });
});

describe('without a call engine', () => {
  it('answers 501 with a clear message on call operations and /sim', async () => {
    const { json, form, store } = await setup();
    await store.calls.put(call(1, { status: 'in-progress' }));
    const create = await json(`${ROOT_A}/Calls.json`, form({ From: '+1', To: '+2', Url: 'http://x/' }));
    expect(create).toMatchObject({ status: 501, body: { kind: 'no-call-engine' } });
    expect(create.body.message).toMatch(/without a call engine/);
    expect((await json(`${ROOT_A}/Calls/${call(1).sid}.json`, form({ Status: 'completed' }))).status).toBe(
      501,
    );
    expect((await json('/sim/Advance', form({ Seconds: '1' }))).status).toBe(501);
    expect(ACCOUNT_A).toMatch(/^AC/);
  });
});
