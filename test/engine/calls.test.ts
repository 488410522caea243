import { describe, expect, it } from 'vitest';
import { EngineError } from '../../src/engine/errors.js';
import { BASE, callIn, harness, rcml } from './harness.js';

const T0 = Date.UTC(2024, 0, 1);

describe('outbound calls', () => {
  it('go queued -> ringing -> in-progress -> completed and run their Url after the answer', async () => {
    const h = harness({ '/hello': rcml('<Say>Hello there</Say>') });
    h.engine.setParty('+15551234', { answerAfter: 3 });
    const call = h.engine.createCall({ From: '+1000', To: '+15551234', Url: `${BASE}/hello` });
    expect(call.status).toBe('queued');
    expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(call.direction).toBe('outbound-api');
    await h.engine.runUntilIdle();
    expect(h.statuses(call.sid)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    const done = h.engine.getCall(call.sid)!;
    expect(done.startTime).toBe(T0 + 3000);
    // "Hello there" = 11 chars at 15/s = 0.733 s, rounded up.
    expect(done.endTime).toBe(T0 + 3733);
    expect(done.duration).toBe(1);
    expect(h.requests[0]).toMatchObject({
      kind: 'rcml',
      url: `${BASE}/hello`,
      method: 'POST',
      at: T0 + 3000,
    });
    expect(h.requests[0].params).toMatchObject({
      CallSid: call.sid,
      From: '+1000',
      To: '+15551234',
      CallStatus: 'in-progress',
      Direction: 'outbound-api',
      ApiVersion: '2012-04-24',
    });
  });

  it('rounds the duration up: 10.1 s gives 11', async () => {
    const h = harness({ '/p': rcml('<Pause length="100"/>') });
    h.engine.setParty('+1', { hangupAfter: 10.1 });
    const call = h.engine.createCall({ From: '+2', To: '+1', Url: `${BASE}/p` });
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(call.sid)).toMatchObject({ status: 'completed', duration: 11 });
  });

  it('end busy, failed and no-answer (at Timeout) as the party decides', async () => {
    const h = harness({ '/x': rcml('<Say>x</Say>') });
    h.engine.setParty('+1', { outcome: 'busy', answerAfter: 2 });
    h.engine.setParty('+2', { outcome: 'fail' });
    h.engine.setParty('+3', { outcome: 'no-answer' });
    h.engine.setParty('+4', { answerAfter: 20 });
    const busy = h.engine.createCall({ From: '+9', To: '+1', Url: `${BASE}/x` });
    const failed = h.engine.createCall({ From: '+9', To: '+2', Url: `${BASE}/x` });
    const noAnswer = h.engine.createCall({ From: '+9', To: '+3', Url: `${BASE}/x` });
    const late = h.engine.createCall({ From: '+9', To: '+4', Url: `${BASE}/x`, Timeout: 15 });
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(busy.sid)).toMatchObject({ status: 'busy', duration: 0, endTime: T0 + 2000 });
    expect(h.engine.getCall(failed.sid)).toMatchObject({ status: 'failed', duration: 0 });
    expect(h.engine.getCall(noAnswer.sid)).toMatchObject({ status: 'no-answer', endTime: T0 + 60_000 });
    expect(h.engine.getCall(late.sid)).toMatchObject({ status: 'no-answer', endTime: T0 + 15_000 });
    expect(h.requests).toHaveLength(0);
  });

  it('reject bad parameters with an error naming the field', () => {
    const h = harness();
    const bad = (p: Record<string, unknown>, field: string): void => {
      const params = { From: '+1', To: '+2', Url: `${BASE}/x`, ...p };
      expect(() => h.engine.createCall(params as never)).toThrow(EngineError);
      expect(() => h.engine.createCall(params as never)).toThrow(field);
    };
    bad({ Url: 'not a url' }, 'Url');
    bad({ From: '' }, 'From');
    bad({ Method: 'PUT' }, 'Method');
    bad({ Timeout: -1 }, 'Timeout');
    bad({ StatusCallbackEvent: 'initiated,exploded' }, 'StatusCallbackEvent');
  });

  it('send sip: URI parameters as SipHeader_ request parameters', async () => {
    const h = harness({ '/x': rcml('<Hangup/>') });
    h.engine.createCall({ From: '+1', To: 'sip:alice@example.com?X-Team=blue', Url: `${BASE}/x` });
    await h.engine.runUntilIdle();
    expect(h.requests[0].params['SipHeader_X-Team']).toBe('blue');
  });

  it('call client: targets with custom headers; the party and the request see the bare address', async () => {
    const h = harness({ '/x': rcml('<Pause length="9"/>') });
    h.engine.setParty('client:alice', { answerAfter: 4, hangupAfter: 2 });
    h.engine.setParty('sip:bob@example.com', { outcome: 'busy' });
    const alice = h.engine.createCall({
      From: '+1',
      To: 'client:alice',
      Url: `${BASE}/x`,
      headers: { 'X-Ticket': '42' },
    });
    const bob = h.engine.createCall({
      From: '+1',
      To: 'sip:bob@example.com?X-Team=blue',
      Url: `${BASE}/x`,
      headers: { 'X-Ticket': '7' },
    });
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(alice.sid)).toMatchObject({
      status: 'completed',
      duration: 2,
      startTime: T0 + 4000,
    });
    expect(h.engine.getCall(bob.sid)?.status).toBe('busy');
    expect(h.requests).toHaveLength(1);
    expect(h.requests[0].params).toMatchObject({ To: 'client:alice', 'SipHeader_X-Ticket': '42' });
  });
});

describe('status callbacks', () => {
  it('fire subscribed events with sequence numbers from 0, CallDuration on completed', async () => {
    const h = harness({ '/x': rcml('<Pause length="4"/>') });
    h.engine.registerHandler(`${BASE}/status`, () => ({ status: 204, contentType: 'text/plain', body: '' }));
    h.engine.setParty('+1', { answerAfter: 1 });
    h.engine.createCall({
      From: '+2',
      To: '+1',
      Url: `${BASE}/x`,
      StatusCallback: `${BASE}/status`,
      StatusCallbackEvent: 'initiated, ringing,answered,completed',
    });
    await h.engine.runUntilIdle();
    const cbs = h.requests.filter((r) => r.kind === 'status-callback');
    expect(cbs.map((r) => [r.params.CallStatus, r.params.SequenceNumber])).toEqual([
      ['queued', '0'],
      ['ringing', '1'],
      ['in-progress', '2'],
      ['completed', '3'],
    ]);
    expect(cbs[3].params).toMatchObject({ CallDuration: '4', CallbackSource: 'call-progress-events' });
    expect(cbs[0].params.CallDuration).toBeUndefined();
    expect(cbs[3].params.Timestamp).toBe('Mon, 01 Jan 2024 00:00:05 +0000');
    // Every voice-request parameter is there too, with CallStatus naming the event's status.
    for (const cb of cbs) {
      expect(Object.keys(cb.params).sort()).toEqual(
        [
          'AccountSid',
          'ApiVersion',
          'CallSid',
          'CallStatus',
          'CallTimestamp',
          'CallbackSource',
          'CallerName',
          'Direction',
          'ForwardedFrom',
          'From',
          'InstanceId',
          'SequenceNumber',
          'Timestamp',
          'To',
          ...(cb.params.CallStatus === 'completed' ? ['CallDuration'] : []),
        ].sort(),
      );
    }
    expect(cbs.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
  });

  it('send completed alone by default, and a failing callback only writes a notification', async () => {
    const h = harness({ '/x': rcml('<Say>Hi</Say>') });
    h.engine.registerHandler(`${BASE}/status`, () => ({
      status: 500,
      contentType: 'text/plain',
      body: 'boom',
    }));
    const call = h.engine.createCall({
      From: '+2',
      To: '+1',
      Url: `${BASE}/x`,
      StatusCallback: `${BASE}/status`,
    });
    await h.engine.runUntilIdle();
    const cbs = h.requests.filter((r) => r.kind === 'status-callback');
    expect(cbs.map((r) => r.params.CallStatus)).toEqual(['completed']);
    expect(cbs[0].params.SequenceNumber).toBe('0');
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');
    expect(h.notifications).toEqual([expect.objectContaining({ code: '11205', callSid: call.sid, log: 1 })]);
  });
});

describe('inbound calls', () => {
  it('ring while the first document is fetched and are answered by the first answering verb', async () => {
    const h = harness({ '/in': rcml('<Pause length="2"/><Say>Welcome</Say>') });
    const done = await callIn(h, '/in');
    expect(h.statuses(done.sid)).toEqual(['ringing', 'in-progress', 'completed']);
    expect(h.requests[0].params).toMatchObject({ CallStatus: 'ringing', Direction: 'inbound' });
    expect(done.startTime).toBe(T0 + 2000);
    expect(done.dateCreated).toBe(T0);
  });

  it('to an unknown number fail with a notification', async () => {
    const h = harness();
    const call = h.engine.incomingCall('+1', '+404');
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
    expect(h.notifications[0].code).toBe('21403');
  });

  it("carry each answer's text in their response events, capped, for a console to show", async () => {
    const long = `<Response><Say>${'a'.repeat(5000)}</Say></Response>`;
    const h = harness({ '/in': rcml('<Redirect>/long</Redirect>'), '/long': long });
    await callIn(h, '/in');
    const responses = h.events.filter((e) => e.type === 'response');
    expect(responses[0]).toMatchObject({
      status: 200,
      contentType: 'text/xml',
      body: '<Response><Redirect>/long</Redirect></Response>',
    });
    expect(responses[0]).not.toHaveProperty('bodyTruncated');
    expect(responses[1]).toMatchObject({ bodyTruncated: true, body: long.slice(0, 4096) });
  });

  it('to a number with a leading space name it and hint at an unencoded plus', async () => {
    const h = harness();
    h.engine.incomingCall('+1', ' 15552222');
    await h.engine.runUntilIdle();
    expect(h.notifications[0].code).toBe('21403');
    expect(h.notifications[0].message).toContain('" 15552222"');
    expect(h.notifications[0].message).toContain('%2B');
  });

  it('end completed when the caller hangs up, canceled if still ringing', async () => {
    const h = harness({ '/long': rcml('<Say loop="0">music</Say>'), '/ring': rcml('<Pause length="30"/>') });
    h.engine.setParty('+1', { hangupAfter: 7 });
    const a = await callIn(h, '/long', '+1');
    expect(a).toMatchObject({ status: 'completed', duration: 7 });
    h.engine.setNumber('+8', { voiceUrl: `${BASE}/ring` });
    const b = h.engine.incomingCall('+2', '+8');
    await h.engine.advance(3);
    h.engine.hangupParty(b.sid);
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(b.sid)).toMatchObject({ status: 'canceled', duration: 0 });
  });
});
