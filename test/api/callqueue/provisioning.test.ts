import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_A, ACCOUNT_B } from '../../store/fixtures.js';
import { AUTH_B, BASE, basic } from '../harness.js';
import { callQueueServer } from './harness.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function open() {
  const s = await callQueueServer();
  opened.push(s);
  return s;
}

const RFC_2822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} \+0000$/;

describe('POST /callqueue/provisioning', () => {
  it('answers the Call Queuing number record of SPEC, every field', async () => {
    const s = await open();
    const res = await s.json('/callqueue/provisioning', {
      body: { applicationUrl: 'https://user:pw@app.test/customer?x=1', phoneNumber: '+15551230001' },
    });
    expect(res.status).toBe(200);
    const r = res.body;
    expect(Object.keys(r).sort()).toEqual(
      [
        'sid',
        'phoneNumber',
        'accountSid',
        'friendlyName',
        'dateCreated',
        'dateUpdated',
        'voiceUrl',
        'voiceMethod',
        'statusCallback',
        'statusCallbackMethod',
        'apiVersion',
        'isSIP',
        'uri',
        'voiceFallbackUrl',
        'voiceFallbackMethod',
        'voiceCallerIdLookup',
        'voiceApplicationSid',
        'smsUrl',
        'smsMethod',
        'smsFallbackUrl',
        'smsFallbackMethod',
        'smsApplicationSid',
      ].sort(),
    );
    expect(r.sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect(r).toMatchObject({
      phoneNumber: '+15551230001',
      accountSid: ACCOUNT_A,
      friendlyName: '+15551230001',
      voiceMethod: 'POST',
      statusCallback: `${BASE}/callqueue/callback`,
      statusCallbackMethod: 'POST',
      apiVersion: '2012-04-24',
      isSIP: true,
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/IncomingPhoneNumbers/${r.sid}.json`,
      voiceFallbackUrl: null,
      voiceApplicationSid: null,
      smsUrl: null,
      smsApplicationSid: null,
    });
    expect(r.dateCreated).toMatch(RFC_2822);
    expect(r.dateUpdated).toBe(r.dateCreated);
    // The application URL with its credentials and query, plus the internal parameters.
    const voice = new URL(r.voiceUrl);
    expect(`${voice.origin}${voice.pathname}`).toBe('https://app.test/customer');
    expect(voice.username).toBe('user');
    expect(voice.searchParams.get('x')).toBe('1');
    expect(voice.searchParams.get('CallQueueNumberSid')).toBe(r.sid);
    expect(voice.searchParams.get('CallQueueState')).toBe('1');
  });

  it('takes GET, byoc false, and a number without + (stored in E.164)', async () => {
    const s = await open();
    const res = await s.json('/callqueue/provisioning', {
      body: {
        applicationUrl: 'http://app.test/agent',
        applicationUrlMethod: 'GET',
        phoneNumber: '4930123456',
        byoc: false,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ phoneNumber: '+4930123456', voiceMethod: 'GET', isSIP: false });
  });

  it('is lenient as the platform is: a lower-case method, fields it does not know ignored', async () => {
    const s = await open();
    const res = await s.json('/callqueue/provisioning', {
      body: {
        applicationUrl: 'http://app.test/agent',
        applicationUrlMethod: 'get',
        phoneNumber: '+15551230002',
        friendlyName: 'not a field here',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ voiceMethod: 'GET' });
    expect(JSON.stringify(res.body)).not.toContain('not a field here');
  });

  it.each([
    [{ phoneNumber: '+15551230001' }, 'applicationUrl', /required/],
    [{ applicationUrl: 'http://app.test/a' }, 'phoneNumber', /required/],
    [{ applicationUrl: '/relative', phoneNumber: '+15551230001' }, 'applicationUrl', /absolute http/],
    [{ applicationUrl: 'ftp://app.test/a', phoneNumber: '+15551230001' }, 'applicationUrl', /http/],
    [{ applicationUrl: 42, phoneNumber: '+15551230001' }, 'applicationUrl', /string/],
    [
      { applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001', applicationUrlMethod: 'PUT' },
      'applicationUrlMethod',
      /GET or POST/,
    ],
    [{ applicationUrl: 'http://app.test/a', phoneNumber: '555-1234' }, 'phoneNumber', /country code/],
    [{ applicationUrl: 'http://app.test/a', phoneNumber: '+0123456789' }, 'phoneNumber', /country code/],
    [{ applicationUrl: 'http://app.test/a', phoneNumber: '+123456' }, 'phoneNumber', /country code/],
    [{ applicationUrl: 'http://app.test/a', phoneNumber: `+1${'2'.repeat(15)}` }, 'phoneNumber', /country/],
    [{ applicationUrl: 'http://app.test/a', phoneNumber: 15551230001 }, 'phoneNumber', /string/],
    [
      { applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001', override: 'yes' },
      'override',
      /true/,
    ],
    [{ applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001', byoc: 1 }, 'byoc', /true or false/],
    [
      { applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001', applicationUrlMethod: 'PUT' },
      'applicationUrlMethod',
      /GET or POST/,
    ],
  ])('refuses %j with 400 naming %s', async (body, field, message) => {
    const s = await open();
    const res = await s.json('/callqueue/provisioning', { body });
    expect(res.status).toBe(400);
    expect(res.body.parameter).toBe(field);
    expect(res.body.message).toMatch(message);
    expect(res.body.message.startsWith(`${field}:`)).toBe(true);
  });

  it.each([['{"applicationUrl": '], ['[1, 2]'], ['"text"'], ['null']])(
    'refuses the body %s with 400',
    async (raw) => {
      const s = await open();
      const res = await s.json('/callqueue/provisioning', { raw });
      expect(res.status).toBe(400);
      expect(res.body.kind).toBe('malformed-body');
    },
  );

  it('needs Basic authentication', async () => {
    const s = await open();
    const body = { applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001' };
    expect((await s.json('/callqueue/provisioning', { body, auth: null })).status).toBe(401);
    expect(
      (await s.json('/callqueue/provisioning', { body, auth: basic(ACCOUNT_A, 'wrong-token') })).status,
    ).toBe(401);
  });

  it('refuses a number already provisioned with 409; override replaces its settings, same sid', async () => {
    const s = await open();
    const first = await s.json('/callqueue/provisioning', {
      body: { applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001' },
    });
    await s.engine.advance(5);
    const again = await s.json('/callqueue/provisioning', {
      body: { applicationUrl: 'http://app.test/b', phoneNumber: '15551230001' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ kind: 'already-provisioned', code: 20409, parameter: 'phoneNumber' });
    expect(again.body.message).toContain(first.body.sid);

    const replaced = await s.json('/callqueue/provisioning', {
      body: {
        applicationUrl: 'http://app.test/b',
        applicationUrlMethod: 'GET',
        phoneNumber: '+15551230001',
        override: true,
        byoc: false,
      },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ sid: first.body.sid, voiceMethod: 'GET', isSIP: false });
    expect(replaced.body.dateCreated).toBe(first.body.dateCreated);
    expect(new URL(replaced.body.voiceUrl).pathname).toBe('/b');
    expect(new URL(replaced.body.voiceUrl).searchParams.get('CallQueueState')).toBe('2');
    const listed = await s.json('/callqueue/numbers');
    expect(listed.body.numbers).toHaveLength(1);
    expect(listed.body.numbers[0].voiceUrl).toBe(replaced.body.voiceUrl);
  });

  it("refuses another account's number with 409 that reveals nothing, even with override", async () => {
    const s = await open();
    const mine = await s.json('/callqueue/provisioning', {
      body: { applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001' },
    });
    for (const override of [false, true]) {
      const theirs = await s.json('/callqueue/provisioning', {
        auth: AUTH_B,
        body: { applicationUrl: 'http://evil.test/x', phoneNumber: '+15551230001', override },
      });
      expect(theirs.status).toBe(409);
      expect(theirs.body.kind).toBe('number-unavailable');
      const text = JSON.stringify(theirs.body);
      expect(text).not.toContain(mine.body.sid);
      expect(text).not.toContain(ACCOUNT_A);
      expect(text).not.toContain('app.test');
    }
    // Account A's number is untouched, and B sees none.
    expect((await s.json(`/callqueue/numbers/${mine.body.sid}`)).body.voiceUrl).toBe(mine.body.voiceUrl);
    expect((await s.json('/callqueue/numbers', { auth: AUTH_B })).body.numbers).toEqual([]);
    expect((await s.json(`/callqueue/numbers/${mine.body.sid}`, { auth: AUTH_B })).status).toBe(404);
    expect(
      (await s.json(`/callqueue/numbers/${mine.body.sid}`, { method: 'DELETE', auth: AUTH_B })).status,
    ).toBe(404);
    expect(ACCOUNT_B).not.toBe(ACCOUNT_A);
  });

  it('concurrent provisionings of one number create it once', async () => {
    const s = await open();
    const body = { applicationUrl: 'http://app.test/a', phoneNumber: '+15551230001' };
    const results = await Promise.all([1, 2, 3].map(() => s.json('/callqueue/provisioning', { body })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it('lists, gets and unprovisions numbers; an unprovisioned number routes no more calls', async () => {
    const s = await open();
    s.serve('http://app.test/hello', () => ({
      status: 200,
      contentType: 'text/xml',
      body: '<Response><Say>hi</Say></Response>',
    }));
    const a = await s.json('/callqueue/provisioning', {
      body: { applicationUrl: 'http://app.test/hello', phoneNumber: '+15551230001' },
    });
    const b = await s.json('/callqueue/provisioning', {
      body: { applicationUrl: 'http://app.test/hello', phoneNumber: '+15551230002' },
    });
    const list = await s.json('/callqueue/numbers');
    expect(list.body.numbers.map((n: { sid: string }) => n.sid)).toEqual([a.body.sid, b.body.sid]);
    expect((await s.json(`/callqueue/numbers/${b.body.sid}`)).body).toEqual(b.body);

    const routed = s.engine.incomingCall('+15559999', '+15551230001');
    await s.engine.runUntilIdle();
    expect(s.engine.getCall(routed.sid)?.status ?? routed.status).toBe('completed');

    expect((await s.json(`/callqueue/numbers/${a.body.sid}`, { method: 'DELETE' })).status).toBe(204);
    expect((await s.json(`/callqueue/numbers/${a.body.sid}`)).status).toBe(404);
    expect((await s.json(`/callqueue/numbers/${a.body.sid}`, { method: 'DELETE' })).status).toBe(404);
    const unrouted = s.engine.incomingCall('+15559999', '+15551230001');
    await s.engine.runUntilIdle();
    expect(unrouted.status).toBe('failed');
    // The number is free again.
    const reused = await s.json('/callqueue/provisioning', {
      auth: AUTH_B,
      body: { applicationUrl: 'http://app.test/hello', phoneNumber: '+15551230001' },
    });
    expect(reused.status).toBe(200);
    expect(reused.body.sid).not.toBe(a.body.sid);
  });
});
