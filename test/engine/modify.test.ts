import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerVerb } from '../../src/engine/index.js';
import { faxVerb } from '../../src/engine/verbs/fax.js';
import { NEXT } from '../../src/engine/verbs/types.js';
import { BASE, harness, rcml } from './harness.js';

const DIAL = rcml('<Dial action="/a">+1</Dial>');

/** A caller bridged to +1 (answers at 2 s), modified at 10 s. */
async function bridged(extra: Record<string, string> = {}) {
  const h = harness({ '/d': DIAL, '/a': rcml(''), '/new': rcml('<Say>now here and more</Say>'), ...extra });
  h.engine.setNumber('+100', { voiceUrl: `${BASE}/d` });
  h.engine.setParty('+1', { answerAfter: 2 });
  const caller = h.engine.incomingCall('+15550001', '+100');
  await h.engine.advance(10);
  const leg = h.engine.listCalls().find((c) => c.parentCallSid === caller.sid)!;
  return { h, caller, leg };
}

describe('modifyCall', () => {
  it('ChildCallMode Hangup (default): the caller runs the new URL and the child is hung up', async () => {
    const { h, caller, leg } = await bridged();
    h.engine.modifyCall(caller.sid, { Url: `${BASE}/new` });
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(leg.sid)?.status).toBe('completed');
    expect(h.verbs(caller.sid)).toEqual(['Dial', 'Say']);
    expect(h.requests.some((r) => r.kind === 'action')).toBe(false);
    expect(h.requests.find((r) => r.kind === 'modify')?.url).toBe(`${BASE}/new`);
  });

  it('ChildCallMode Move (and MoveConnectedCallLeg): both legs run the new URL', async () => {
    for (const params of [{ ChildCallMode: 'Move' as const }, { MoveConnectedCallLeg: 'true' as const }]) {
      const { h, caller, leg } = await bridged();
      h.engine.modifyCall(caller.sid, { Url: `${BASE}/new`, ...params });
      await h.engine.runUntilIdle();
      expect(h.verbs(caller.sid)).toEqual(['Dial', 'Say']);
      expect(h.verbs(leg.sid)).toEqual(['Say']);
      expect(h.engine.liveCount).toBe(0);
    }
  });

  it('ChildCallMode StayConnected: legs stay bridged; Hold and Resume write session detail records', async () => {
    const { h, caller, leg } = await bridged({ '/hold': rcml('<Hold/><Pause length="5"/><Resume/>') });
    const off = h.events.length;
    h.engine.modifyCall(leg.sid, { Url: `${BASE}/hold`, ChildCallMode: 'StayConnected' });
    await h.engine.advance(10);
    expect(h.engine.getCall(caller.sid)?.status).toBe('in-progress');
    expect(h.engine.getCall(leg.sid)?.status).toBe('in-progress');
    const media = h.events
      .slice(off)
      .flatMap((e) => (e.type === 'media' ? [[e.at - h.engine.now(), e.held]] : []));
    expect(media).toEqual([
      [-10_000, true],
      [-5_000, false],
    ]);
    expect(h.sessionDetails.map((r) => [r.callSid, r.direction])).toEqual([
      [leg.sid, 'hold'],
      [leg.sid, 'resume'],
    ]);
    h.engine.hangupParty(leg.sid);
    await h.engine.runUntilIdle();
    expect(h.engine.liveCount).toBe(0);
    expect(h.requests.find((r) => r.kind === 'action')?.params.DialCallStatus).toBe('completed');
  });

  it('StayConnected: a Hangup in the new document, or the end of the original one, ends both legs', async () => {
    // Hangup verb in the document run beside the bridge, 5 s after the modification.
    const a = await bridged({ '/stay': rcml('<Pause length="5"/><Hangup/>') });
    a.h.engine.modifyCall(a.leg.sid, { Url: `${BASE}/stay`, ChildCallMode: 'StayConnected' });
    await a.h.engine.runUntilIdle();
    const t = (sid: string) => a.h.engine.getCall(sid)!.endTime! - Date.UTC(2024, 0, 1);
    expect([t(a.caller.sid), t(a.leg.sid)]).toEqual([15_000, 15_000]);
    expect(a.h.verbs(a.leg.sid)).toEqual(['Pause', 'Hangup']);

    // The original document's Dial ends at its timeLimit (20 s) while the new one still pauses.
    const b = await bridged({
      '/d': rcml('<Dial action="/a" timeLimit="20">+1</Dial>'),
      '/stay': rcml('<Pause length="50"/>'),
    });
    b.h.engine.modifyCall(b.caller.sid, { Url: `${BASE}/stay`, ChildCallMode: 'StayConnected' });
    await b.h.engine.runUntilIdle();
    for (const sid of [b.caller.sid, b.leg.sid]) {
      expect(b.h.engine.getCall(sid)).toMatchObject({
        status: 'completed',
        endTime: Date.UTC(2024, 0, 1) + 22_000,
      });
    }
  });

  it('a modification whose Url fails uses its FallbackUrl', async () => {
    const { h, caller } = await bridged({ '/fb': rcml('<Say>fallback</Say>') });
    h.engine.modifyCall(caller.sid, {
      Url: `${BASE}/missing`,
      FallbackUrl: `${BASE}/fb`,
      FallbackMethod: 'GET',
    });
    await h.engine.runUntilIdle();
    expect(h.requests.slice(-2).map((r) => [r.kind, r.url, r.method])).toEqual([
      ['modify', `${BASE}/missing`, 'POST'],
      ['fallback', `${BASE}/fb`, 'GET'],
    ]);
    expect(h.notifications.map((n) => n.code)).toEqual(['21402']);
    expect(h.verbs(caller.sid)).toEqual(['Dial', 'Say']);
  });

  it('writes one session detail record per Hold/Resume and none for Mute', async () => {
    const h = harness({ '/h': rcml('<Hold/><Hold/><Pause/><Resume/>') });
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/h` });
    const call = h.engine.incomingCall('+1', '+100');
    await h.engine.runUntilIdle();
    expect(h.sessionDetails.map((r) => [r.callSid, r.direction, r.offer])).toEqual([
      [call.sid, 'hold', 'sendonly'],
      [call.sid, 'resume', 'sendrecv'],
    ]);
    const m = harness({ '/p': rcml('<Pause length="10"/>') });
    m.engine.setNumber('+100', { voiceUrl: `${BASE}/p` });
    const c2 = m.engine.incomingCall('+1', '+100');
    const c3 = m.engine.incomingCall('+2', '+100');
    await m.engine.advance(1);
    m.engine.modifyCall(c2.sid, { Mute: 'true' });
    expect(m.engine.liveCall(c2.sid).media.muted).toBe(true);
    // Calls start from one shared media state: muting one leaves the others as they were.
    expect(m.engine.liveCall(c3.sid).media).toEqual({ muted: false, held: false });
    await m.engine.runUntilIdle();
    expect(m.sessionDetails).toEqual([]);
    expect(m.events.some((e) => e.type === 'media' && e.muted)).toBe(true);
  });

  it('modifying the child leg ends the bridge: the Dial completes and the child runs the URL', async () => {
    const { h, caller, leg } = await bridged();
    h.engine.modifyCall(leg.sid, { Url: `${BASE}/new` });
    await h.engine.runUntilIdle();
    expect(h.verbs(leg.sid)).toEqual(['Say']);
    expect(h.requests.find((r) => r.kind === 'action')?.params.DialCallStatus).toBe('completed');
    expect(h.engine.getCall(caller.sid)?.status).toBe('completed');
  });

  it('Status=completed hangs up in any state; Status=canceled only while queued or ringing', async () => {
    const h = harness({ '/p': rcml('<Pause length="60"/>') });
    h.engine.setParty('+9', { answerAfter: 20 });
    const ringing = h.engine.createCall({ From: '+1', To: '+9', Url: `${BASE}/p` });
    const other = h.engine.createCall({ From: '+1', To: '+8', Url: `${BASE}/p` });
    await h.engine.advance(1);
    h.engine.modifyCall(other.sid, { Status: 'canceled' });
    expect(h.engine.getCall(other.sid)?.status).toBe('in-progress');
    h.engine.modifyCall(ringing.sid, { Status: 'canceled' });
    expect(h.engine.getCall(ringing.sid)?.status).toBe('canceled');
    h.engine.modifyCall(other.sid, { Status: 'completed', StatusCallback: `${BASE}/cb` });
    expect(h.engine.getCall(other.sid)?.status).toBe('completed');
    await h.engine.runUntilIdle();
    expect(h.requests.find((r) => r.kind === 'status-callback')?.params.CallStatus).toBe('completed');
    const queued = h.engine.createCall({ From: '+1', To: '+9', Url: `${BASE}/p` });
    h.engine.modifyCall(queued.sid, { Status: 'completed' });
    expect(h.engine.getCall(queued.sid)?.status).toBe('canceled');
  });

  it('refuses bad parameters, unknown and ended calls with clear errors', async () => {
    const h = harness({ '/p': rcml('<Pause/>') });
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${BASE}/p` });
    expect(() => h.engine.modifyCall(call.sid, {})).toThrow(/one of Url, Status, Mute or StatusCallback/);
    expect(() => h.engine.modifyCall(call.sid, { Url: 'nope' })).toThrow(/Url: must be an absolute URL/);
    expect(() => h.engine.modifyCall(call.sid, { Url: `${BASE}/p`, ChildCallMode: 'Stay' as never })).toThrow(
      /ChildCallMode/,
    );
    expect(() => h.engine.modifyCall('CAnone', { Status: 'completed' })).toThrow(
      expect.objectContaining({ code: 'unknown-call' }),
    );
    await h.engine.runUntilIdle();
    expect(() => h.engine.modifyCall(call.sid, { Status: 'completed' })).toThrow(
      expect.objectContaining({ code: 'not-modifiable' }),
    );
  });

  it('a modification interrupts the script with reason modified and runs its cleanups', async () => {
    const seen: string[] = [];
    registerVerb('Fax', async (ctx) => {
      ctx.signal.onAbort(() => seen.push(`cleanup ${ctx.signal.reason}`));
      try {
        await ctx.wait(100);
      } catch (err) {
        seen.push(String((err as Error).message));
        throw err;
      }
      return NEXT;
    });
    try {
      const h = harness({ '/g': rcml('<Fax>x</Fax>'), '/new': rcml('<Say>x</Say>') });
      h.engine.setNumber('+100', { voiceUrl: `${BASE}/g` });
      const call = h.engine.incomingCall('+1', '+100');
      await h.engine.advance(1);
      h.engine.modifyCall(call.sid, { Url: `${BASE}/new`, Method: 'GET' });
      await h.engine.runUntilIdle();
      expect(h.verbs(call.sid)).toEqual(['Fax', 'Say']);
      expect(seen).toEqual(['cleanup modified', 'interrupted: modified']);
      expect(h.requests.find((r) => r.kind === 'modify')?.method).toBe('GET');
    } finally {
      registerVerb('Fax', faxVerb);
    }
  });

  it('a modification with Url of a ringing outbound call runs when it is answered', async () => {
    const h = harness({ '/p': rcml('<Pause/>'), '/new': rcml('<Say>x</Say>') });
    h.engine.setParty('+2', { answerAfter: 5 });
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${BASE}/p` });
    await h.engine.advance(1);
    h.engine.modifyCall(call.sid, { Url: `${BASE}/new`, Method: 'GET' });
    await h.engine.runUntilIdle();
    expect(h.verbs(call.sid)).toEqual(['Say']);
    expect(h.requests.find((r) => r.kind === 'modify')?.method).toBe('GET');
  });
});

describe('Dial property', () => {
  const party = fc.record({
    outcome: fc.constantFrom('answer' as const, 'busy' as const, 'no-answer' as const, 'fail' as const),
    answerAfter: fc.integer({ min: 0, max: 40 }),
    hangupAfter: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
  });
  it('never leaves a leg alive and always reports a valid DialCallStatus', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(party, { minLength: 1, maxLength: 3 }),
        fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }),
        fc.integer({ min: 1, max: 60 }),
        async (parties, callerHangup, timeLimit) => {
          const nouns = parties.map((_, i) => `<Number>+${i + 1}</Number>`).join('');
          const h = harness({
            '/d': rcml(`<Dial action="/a" timeout="20" timeLimit="${timeLimit}">${nouns}</Dial>`),
            '/a': rcml(''),
          });
          for (const [i, p] of parties.entries()) h.engine.setParty(`+${i + 1}`, p);
          h.engine.setParty('+15550001', { hangupAfter: callerHangup });
          h.engine.setNumber('+100', { voiceUrl: `${BASE}/d` });
          const caller = h.engine.incomingCall('+15550001', '+100');
          expect(await h.engine.runUntilIdle()).toBe(true);
          expect(h.engine.liveCount).toBe(0);
          const actions = h.requests.filter((r) => r.kind === 'action');
          expect(actions).toHaveLength(1);
          const p = actions[0].params;
          expect(['completed', 'busy', 'no-answer', 'failed', 'canceled']).toContain(p.DialCallStatus);
          expect(p.DialRingDuration).toMatch(/^\d+$/);
          // No leg outlives its Dial: every leg has ended when the action is requested.
          const legs = h.engine.listCalls().filter((c) => c.parentCallSid === caller.sid);
          expect(legs).toHaveLength(parties.length);
          for (const leg of legs) expect(leg.endTime!).toBeLessThanOrEqual(actions[0].at);
          // A bridged Dial names the leg that answered and its bridged seconds (ring not counted).
          const answered = legs.filter((l) => l.startTime !== undefined);
          if (p.DialCallStatus === 'completed') {
            const winner = legs.find((l) => l.sid === p.DialCallSid);
            expect(winner?.startTime).toBeDefined();
            expect(p.DialCallDuration).toBe(String(winner!.duration));
            expect(answered).toHaveLength(1);
          } else {
            expect(Number(p.DialCallDuration ?? 0)).toBe(0);
          }
        },
      ),
      { numRuns: process.env.RCML_DEEP ? 2000 : 100 },
    );
  });
});
