import { describe, expect, it } from 'vitest';
import { BASE, harness, rcml } from './harness.js';

const T0 = Date.UTC(2024, 0, 1);

/** A caller whose Dial rings `targets` (Number nouns); the app at /new pauses 5 s. */
function dialing(targets: string) {
  const h = harness({
    '/d': rcml(`<Dial action="/a" timeout="30">${targets}</Dial>`),
    '/a': rcml('<Say>after the dial</Say>'),
    '/new': rcml('<Pause length="5"/>'),
  });
  h.engine.setNumber('+100', { voiceUrl: `${BASE}/d` });
  const caller = h.engine.incomingCall('+15550001', '+100');
  const legTo = (to: string) =>
    h.engine.listCalls().find((c) => c.parentCallSid === caller.sid && c.to === to)!;
  const action = () => h.requests.filter((r) => r.kind === 'action').map((r) => r.params);
  const bridges = () => h.events.filter((e) => e.type === 'bridge');
  return { h, caller, legTo, action, bridges };
}

describe('modifying a Dial leg before it is bridged', () => {
  it('a ringing leg modified with Url is never bridged: it runs the new URL on answer, the Dial ends canceled', async () => {
    const { h, caller, legTo, action, bridges } = dialing('<Number>+1</Number>');
    h.engine.setParty('+1', { answerAfter: 10 });
    await h.engine.advance(2);
    const leg = legTo('+1');
    expect(leg.status).toBe('ringing');
    h.engine.modifyCall(leg.sid, { Url: `${BASE}/new` });
    await h.engine.runUntilIdle();
    expect(bridges()).toEqual([]);
    // The Dial stops waiting for it at once; the leg is not canceled with it.
    expect(action()).toEqual([
      expect.objectContaining({ DialCallStatus: 'canceled', DialCallSid: leg.sid, DialRingDuration: '2' }),
    ]);
    expect(h.verbs(caller.sid)).toEqual(['Dial', 'Say']);
    const after = h.engine.getCall(leg.sid)!;
    expect(after.status).toBe('completed');
    expect(after.startTime).toBe(T0 + 10_000);
    expect(after.duration).toBe(5);
    expect(h.verbs(leg.sid)).toEqual(['Pause']);
    expect(h.requests.filter((r) => r.kind === 'modify').map((r) => r.callSid)).toEqual([leg.sid]);
  });

  it('the other legs keep ringing: the next to answer is bridged, the modified one is left alone', async () => {
    const { h, caller, legTo, action, bridges } = dialing('<Number>+1</Number><Number>+2</Number>');
    h.engine.setParty('+1', { answerAfter: 3, hangupAfter: 20 });
    h.engine.setParty('+2', { answerAfter: 6, hangupAfter: 10 });
    await h.engine.advance(1);
    h.engine.modifyCall(legTo('+1').sid, { Url: `${BASE}/new` });
    await h.engine.runUntilIdle();
    const starts = bridges().filter((e) => e.type === 'bridge' && e.action === 'start');
    expect(starts).toEqual([expect.objectContaining({ callSid: caller.sid, peerSid: legTo('+2').sid })]);
    expect(action()).toEqual([
      expect.objectContaining({
        DialCallStatus: 'completed',
        DialCallSid: legTo('+2').sid,
        DialCallDuration: '10',
      }),
    ]);
    // +1 answered at 3 s (after leaving the Dial) and ran its own document to the end.
    expect(h.engine.getCall(legTo('+1').sid)).toMatchObject({ status: 'completed', duration: 5 });
    expect(h.verbs(legTo('+1').sid)).toEqual(['Pause']);
  });

  it('a leg modified while its screening document runs is not bridged and not hung up', async () => {
    const h = harness({
      '/d': rcml('<Dial action="/a"><Number url="/screen">+1</Number></Dial>'),
      '/a': rcml(''),
      '/screen': rcml('<Pause length="4"/>'),
      '/new': rcml('<Pause length="5"/>'),
    });
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/d` });
    h.engine.setParty('+1', { answerAfter: 1 });
    const caller = h.engine.incomingCall('+15550001', '+100');
    await h.engine.advance(3);
    const leg = h.engine.listCalls().find((c) => c.parentCallSid === caller.sid)!;
    h.engine.modifyCall(leg.sid, { Url: `${BASE}/new` });
    await h.engine.runUntilIdle();
    expect(h.events.some((e) => e.type === 'bridge')).toBe(false);
    expect(h.requests.find((r) => r.kind === 'action')?.params).toMatchObject({ DialCallStatus: 'canceled' });
    // Answered at 1 s, redirected at 3 s, then its own 5 s document: ends at 8 s.
    expect(h.engine.getCall(leg.sid)).toMatchObject({ status: 'completed', endTime: T0 + 8000 });
    expect(h.verbs(leg.sid)).toEqual(['Pause', 'Pause']);
  });
});
