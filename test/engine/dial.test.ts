import { describe, expect, it } from 'vitest';
import { BASE, callIn, harness, rcml } from './harness.js';

const children = (h: ReturnType<typeof harness>, parent: string) =>
  h.engine.listCalls().filter((c) => c.parentCallSid === parent);
const action = (h: ReturnType<typeof harness>) => h.requests.find((r) => r.kind === 'action')?.params;

describe('Dial', () => {
  it('bridges the first leg to answer and cancels the others', async () => {
    const h = harness({
      '/d': rcml(
        '<Dial action="/after" callerId="+15550777"><Number>+1</Number><Number>+2</Number><Client>bob</Client></Dial>',
      ),
      '/after': rcml('<Say>bye</Say>'),
    });
    h.engine.setParty('+1', { answerAfter: 5, hangupAfter: 20 });
    h.engine.setParty('+2', { answerAfter: 3, hangupAfter: 10 });
    h.engine.setParty('client:bob', { outcome: 'no-answer' });
    const call = await callIn(h, '/d');
    const legs = children(h, call.sid);
    expect(legs.map((l) => [l.to, l.status, l.direction, l.from])).toEqual([
      ['+1', 'canceled', 'outbound-dial', '+15550777'],
      ['+2', 'completed', 'outbound-dial', '+15550777'],
      ['client:bob', 'canceled', 'outbound-dial', '+15550777'],
    ]);
    expect(action(h)).toMatchObject({
      DialCallStatus: 'completed',
      DialCallSid: legs[1].sid,
      DialCallDuration: '10',
      DialRingDuration: '3',
    });
    expect(legs[1].duration).toBe(10);
    expect(h.verbs(call.sid)).toEqual(['Dial', 'Say']);
    expect(h.events.some((e) => e.type === 'bridge' && e.action === 'start')).toBe(true);
  });

  it.each([
    ['busy', 'busy', { outcome: 'busy' as const, answerAfter: 2 }],
    ['failed', 'failed', { outcome: 'fail' as const }],
    // The Dial timeout cancels the ringing leg: canceled, as the platform reports it.
    ['canceled', 'no-answer', { outcome: 'no-answer' as const }],
  ])('reports %s when no leg answers', async (status, legStatus, party) => {
    const h = harness({ '/d': rcml('<Dial action="/a" timeout="7">+1</Dial>'), '/a': rcml('') });
    h.engine.setParty('+1', party);
    const call = await callIn(h, '/d');
    expect(action(h)?.DialCallStatus).toBe(status);
    const leg = children(h, call.sid)[0];
    expect(leg.status).toBe(legStatus);
    if (legStatus === 'no-answer') expect(action(h)?.DialRingDuration).toBe('7');
  });

  it('reports canceled when the caller hangs up while legs ring, and still requests the action', async () => {
    const h = harness({ '/d': rcml('<Dial action="/a">+1</Dial>'), '/a': rcml('') });
    h.engine.setParty('+15550001', { hangupAfter: 4 });
    h.engine.setParty('+1', { answerAfter: 10 });
    const call = await callIn(h, '/d');
    expect(children(h, call.sid)[0].status).toBe('canceled');
    expect(action(h)?.DialCallStatus).toBe('canceled');
  });

  it('ends the bridge and the whole call at timeLimit', async () => {
    const h = harness({ '/d': rcml('<Dial timeLimit="30" timeout="5">+1</Dial><Say>after</Say>') });
    const call = await callIn(h, '/d');
    const leg = children(h, call.sid)[0];
    expect(leg.status).toBe('completed');
    expect(leg.duration).toBe(30);
    expect(h.verbs(call.sid)).toEqual(['Dial']);
    expect(call.duration).toBe(30);
  });

  it('still requests the action when the caller hangs up during the bridge, and ends the callee', async () => {
    const h = harness({
      '/d': rcml('<Dial action="/a" record="true">+1</Dial>'),
      '/a': rcml('<Say>x</Say>'),
    });
    h.engine.setParty('+15550001', { hangupAfter: 12 });
    h.engine.setParty('+1', { answerAfter: 2 });
    const call = await callIn(h, '/d');
    const leg = children(h, call.sid)[0];
    expect(leg.status).toBe('completed');
    expect(h.engine.liveCount).toBe(0);
    const params = action(h)!;
    expect(params).toMatchObject({
      DialCallStatus: 'completed',
      DialCallDuration: '10',
      DialRingDuration: '2',
    });
    expect(h.recordings).toHaveLength(1);
    expect(h.recordings[0].record.duration).toBe(10);
    expect(params.RecordingUrl).toContain(h.recordings[0].record.sid);
    expect(h.recordings[0].wav.length).toBeGreaterThan(44);
  });

  it('bridges only when the screening document reaches its end', async () => {
    const ok = harness({
      '/d': rcml(`<Dial action="/a"><Number url="${BASE}/screen">+1</Number></Dial>`),
      '/screen': rcml('<Say>Call for you</Say>'),
      '/a': rcml(''),
    });
    ok.engine.setParty('+1', { hangupAfter: 20 });
    await callIn(ok, '/d');
    expect(action(ok)?.DialCallStatus).toBe('completed');
    const legSid = ok.engine.listCalls().find((c) => c.direction === 'outbound-dial')!.sid;
    expect(ok.verbs(legSid)).toEqual(['Say']);

    const refused = harness({
      '/d': rcml(`<Dial action="/a"><Number url="${BASE}/screen">+1</Number></Dial>`),
      '/screen': rcml('<Hangup/>'),
      '/a': rcml(''),
    });
    await callIn(refused, '/d');
    expect(action(refused)?.DialCallStatus).toBe('no-answer');
  });

  it('still requests the action (canceled) when the caller hangs up while the callee is screened', async () => {
    const h = harness({
      '/d': rcml(`<Dial action="/a"><Number url="${BASE}/screen">+1</Number></Dial>`),
      '/screen': rcml('<Pause length="10"/>'),
      '/a': rcml('<Say>never run</Say>'),
    });
    h.engine.setParty('+15550001', { hangupAfter: 4 });
    h.engine.setParty('+1', { answerAfter: 1 });
    const call = await callIn(h, '/d');
    expect(action(h)).toMatchObject({
      DialCallStatus: 'canceled',
      DialRingDuration: '1',
      CallStatus: 'completed',
    });
    expect(children(h, call.sid)[0].status).toBe('completed');
    expect(h.verbs(call.sid)).toEqual(['Dial']);
    expect(h.engine.liveCount).toBe(0);
  });

  it('passes Sip headers, sendDigits and the child status callback', async () => {
    const h = harness({
      '/d': rcml(
        `<Dial><Sip statusCallback="${BASE}/cb" statusCallbackEvent="answered,completed" url="${BASE}/s">sip:bob@x.test?X-Team=blue</Sip></Dial>`,
      ),
      '/s': rcml(''),
      '/cb': rcml(''),
    });
    h.engine.setParty('sip:bob@x.test', { hangupAfter: 3 });
    const call = await callIn(h, '/d');
    const leg = children(h, call.sid)[0];
    expect(leg.to).toBe('sip:bob@x.test');
    const screen = h.requests.find((r) => r.url.endsWith('/s'))!;
    // The screening set (SubVoiceInterpreter.parameters()) names the leg, not its parent.
    expect(screen.params).toMatchObject({
      'SipHeader_X-Team': 'blue',
      CallSid: leg.sid,
      Direction: 'outbound-dial',
    });
    const cbs = h.requests.filter((r) => r.kind === 'status-callback').map((r) => r.params.CallStatus);
    expect(cbs).toEqual(['in-progress', 'completed']);

    const d = harness({ '/d': rcml('<Dial><Number sendDigits="12#">+1</Number></Dial>') });
    d.engine.setParty('+1', { hangupAfter: 1 });
    const c2 = await callIn(d, '/d');
    const leg2 = children(d, c2.sid)[0];
    expect(
      d.events.some((e) => e.type === 'input' && e.callSid === leg2.sid && e.input.kind === 'dtmf'),
    ).toBe(true);
  });

  it('ends the bridge when the caller presses * with hangupOnStar, hangs the callee up and goes on with the action', async () => {
    const h = harness({
      '/d': rcml('<Dial action="/a" hangupOnStar="true">+1</Dial>'),
      '/a': rcml('<Say>back</Say>'),
    });
    // Keys count from the caller's answer; the callee answers after 2 s.
    h.engine.setParty('+15550001', {
      digits: [
        { at: 4, keys: '5' },
        { at: 7, keys: '*' },
      ],
    });
    h.engine.setParty('+1', { answerAfter: 2, hangupAfter: 60 });
    const call = await callIn(h, '/d');
    const leg = children(h, call.sid)[0];
    expect(leg.status).toBe('completed');
    expect(leg.duration).toBe(5);
    expect(action(h)).toMatchObject({ DialCallStatus: 'completed', DialCallDuration: '5' });
    expect(h.verbs(call.sid)).toEqual(['Dial', 'Say']);
    expect(h.events.find((e) => e.type === 'bridge' && e.action === 'end')).toMatchObject({
      reason: 'hangup-on-star',
    });
    // Keys pressed while bridged are reported (not heard by any verb), the 5 ending nothing.
    const keys = h.events.flatMap((e) => (e.type === 'input' && e.callSid === call.sid ? [e] : []));
    expect(keys.map((e) => [e.input.kind === 'dtmf' && e.input.keys, e.heard])).toEqual([
      ['5', false],
      ['*', false],
    ]);
  });

  it('ignores * without hangupOnStar', async () => {
    const h = harness({ '/d': rcml('<Dial action="/a">+1</Dial>'), '/a': rcml('') });
    h.engine.setParty('+15550001', { digits: [{ at: 3, keys: '*' }] });
    h.engine.setParty('+1', { answerAfter: 1, hangupAfter: 10 });
    const call = await callIn(h, '/d');
    expect(children(h, call.sid)[0].duration).toBe(10);
  });
});
