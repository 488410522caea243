import { describe, expect, it } from 'vitest';
import { callIn, harness, rcml } from '../harness.js';

/**
 * Where SPEC is silent, calls behave as the platform's voice interpreter does. Each test names
 * the platform source (RestComm/Restcomm-Connect) that shows the behaviour.
 */

const T0 = Date.UTC(2024, 0, 1);
const legsOf = (h: ReturnType<typeof harness>, parent: string) =>
  h.engine.listCalls().filter((c) => c.parentCallSid === parent);

describe('Dial timeLimit and timeout', () => {
  // restcomm.testsuite telephony/CallLifecycleTest.testDialClientAliceWithTimeLimit: at the
  // limit both parties are hung up; the Dial action is requested but the call does not go on.
  it('timeLimit ends the whole call: callee and caller hang up, the action document does not run', async () => {
    const h = harness({
      '/d': rcml('<Dial action="/a" timeLimit="10">+1</Dial><Say>next verb</Say>'),
      '/a': rcml('<Say>action document</Say>'),
    });
    const call = await callIn(h, '/d');
    const [leg] = legsOf(h, call.sid);
    expect(leg).toMatchObject({ status: 'completed', duration: 10 });
    expect(call).toMatchObject({ status: 'completed', endTime: T0 + 10_000 });
    expect(h.verbs(call.sid)).toEqual(['Dial']);
    const actions = h.requests.filter((r) => r.kind === 'action');
    expect(actions).toHaveLength(1);
    expect(actions[0].params).toMatchObject({ DialCallStatus: 'completed', DialCallDuration: '10' });
  });

  // restcomm.testsuite telephony/DialActionTest.testDialActionAliceNOAnswer asserts
  // DialCallStatus=canceled; VoiceInterpreter.removeDialBranch cancels the ringing branch when
  // the Dial timeout (ReceiveTimeout) fires.
  it('an unanswered Dial reports DialCallStatus=canceled when its timeout runs out', async () => {
    const h = harness({ '/d': rcml('<Dial action="/a" timeout="5">+1</Dial>'), '/a': rcml('') });
    h.engine.setParty('+1', { answerAfter: 30 });
    await callIn(h, '/d');
    const action = h.requests.find((r) => r.kind === 'action');
    expect(action?.params).toMatchObject({ DialCallStatus: 'canceled', DialRingDuration: '5' });
  });
});

describe('Answering', () => {
  // VoiceInterpreter.onTagMessage: on a RINGING call only <Reject> and <Pause> run without
  // answering; any other verb goes through initializingCall (the answer) first.
  it('a first Redirect answers, so its URL gets CallStatus=in-progress', async () => {
    const h = harness({ '/r': rcml('<Redirect>/next</Redirect>'), '/next': rcml('<Hangup/>') });
    const call = await callIn(h, '/r');
    const redirect = h.requests.find((r) => r.kind === 'redirect');
    expect(redirect?.params.CallStatus).toBe('in-progress');
    expect(call.startTime).toBe(T0);
  });

  it('a first Hangup answers, then hangs up', async () => {
    const h = harness({ '/h': rcml('<Hangup/>') });
    const call = await callIn(h, '/h');
    expect(h.statuses(call.sid)).toEqual(['ringing', 'in-progress', 'completed']);
    expect(call).toMatchObject({ status: 'completed', startTime: T0, duration: 0 });
  });

  it('Pause and Reject still run without answering', async () => {
    const h = harness({ '/p': rcml('<Pause length="2"/><Reject/>') });
    const call = await callIn(h, '/p');
    expect(h.statuses(call.sid)).toEqual(['ringing', 'busy']);
    expect(call.startTime).toBeUndefined();
  });
});

describe('Reject', () => {
  // telephony Call.java, Busy action: a Reject ends the call BUSY whatever its reason (486 for
  // busy, 603 Decline otherwise); VoiceInterpreter.Rejecting maps any other reason to rejected.
  it.each([
    ['busy', '<Reject reason="busy"/>'],
    ['rejected', '<Reject reason="rejected"/>'],
    ['the default', '<Reject/>'],
    ['an invalid reason', '<Reject reason="later"/>'],
  ])('with %s ends the call busy', async (_what, xml) => {
    const h = harness({ '/x': rcml(xml) });
    const call = await callIn(h, '/x');
    expect(call).toMatchObject({ status: 'busy', duration: 0 });
  });
});

describe('Dial targets and screening', () => {
  // restcomm.testsuite telephony/DialActionTest.testDialActionInvalidCall: a target that cannot
  // be called places no outbound call; the action gets DialCallStatus=failed, duration 0.
  it('a target that cannot be placed gets no leg and DialCallStatus=failed', async () => {
    const h = harness({
      '/d': rcml('<Dial action="/a"><Number>not a number</Number></Dial>'),
      '/a': rcml(''),
    });
    const call = await callIn(h, '/d');
    expect(legsOf(h, call.sid)).toEqual([]);
    const action = h.requests.find((r) => r.kind === 'action');
    expect(action?.params).toMatchObject({
      DialCallStatus: 'failed',
      DialCallDuration: '0',
      CallStatus: 'in-progress',
    });
    expect(action?.params.DialCallSid).toBeUndefined();
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['13223', 1]]);
  });

  it('the placeable targets of a Dial still ring', async () => {
    const h = harness({
      '/d': rcml('<Dial action="/a"><Number>abc</Number><Number>+1</Number></Dial>'),
      '/a': rcml(''),
    });
    h.engine.setParty('+1', { hangupAfter: 2 });
    const call = await callIn(h, '/d');
    expect(legsOf(h, call.sid).map((l) => l.to)).toEqual(['+1']);
    expect(h.requests.find((r) => r.kind === 'action')?.params.DialCallStatus).toBe('completed');
  });

  // VoiceInterpreter.Bridging.execute: when the screening SubVoiceInterpreter answers anything
  // but End (its Hangup verb: SubVoiceInterpreter.onReceive tells the Hangup tag), the caller
  // goes to hangingUp too.
  it('a screening document ending in Hangup hangs up the caller too', async () => {
    const h = harness({
      '/d': rcml('<Dial action="/a"><Number url="/s">+1</Number></Dial><Say>after</Say>'),
      '/s': rcml('<Say>press nothing</Say><Hangup/>'),
      '/a': rcml('<Say>action document</Say>'),
    });
    const call = await callIn(h, '/d');
    const [leg] = legsOf(h, call.sid);
    expect(leg.status).toBe('completed');
    expect(call.status).toBe('completed');
    expect(h.verbs(call.sid)).toEqual(['Dial']);
    // The action is requested; its document does not run.
    expect(h.requests.filter((r) => r.kind === 'action')).toHaveLength(1);
    expect(h.verbs(leg.sid)).toEqual(['Say', 'Hangup']);
  });
});

describe('Request parameters', () => {
  // VoiceInterpreter.parameters(): OutboundCallSid once the Dial has an outbound call, on every
  // later request; CallTimestamp is callInfo.dateCreated().toString() (ISO 8601 with ms).
  it('OutboundCallSid on requests after a Dial leg exists; CallTimestamp in ISO 8601', async () => {
    const h = harness({
      '/d': rcml('<Say>hi</Say><Dial action="/a">+1</Dial>'),
      '/a': rcml('<Redirect>/r</Redirect>'),
      '/r': rcml('<Hangup/>'),
    });
    h.engine.setParty('+1', { hangupAfter: 1 });
    const call = await callIn(h, '/d');
    const [leg] = legsOf(h, call.sid);
    const byKind = (kind: string) => h.requests.find((r) => r.kind === kind)!.params;
    expect(byKind('rcml').OutboundCallSid).toBeUndefined();
    expect(byKind('rcml').CallTimestamp).toBe('2024-01-01T00:00:00.000Z');
    expect(byKind('action').OutboundCallSid).toBe(leg.sid);
    expect(byKind('redirect').OutboundCallSid).toBe(leg.sid);
  });

  // SubVoiceInterpreter.parameters(): a screening request carries CallSid, AccountSid, From,
  // To, CallStatus, ApiVersion, Direction, CallerName and ForwardedFrom of the callee.
  it('screening requests carry the platform screening parameter set', async () => {
    const h = harness({ '/d': rcml('<Dial><Number url="/s">+1</Number></Dial>'), '/s': rcml('') });
    h.engine.setParty('+1', { hangupAfter: 1 });
    const call = await callIn(h, '/d');
    const [leg] = legsOf(h, call.sid);
    const screen = h.requests.find((r) => r.url.endsWith('/s'))!;
    expect(Object.keys(screen.params).sort()).toEqual(
      [
        'AccountSid',
        'ApiVersion',
        'CallSid',
        'CallStatus',
        'CallerName',
        'Direction',
        'ForwardedFrom',
        'From',
        'To',
      ].sort(),
    );
    expect(screen.params).toMatchObject({
      CallSid: leg.sid,
      Direction: 'outbound-dial',
      CallStatus: 'in-progress',
    });
  });
});

describe('Lenient documents', () => {
  const run = async (body: string, extra: Record<string, string> = {}) => {
    const h = harness({ '/doc': body, ...extra });
    const call = await callIn(h, '/doc');
    return { h, call };
  };

  // rcml/Parser.parse + TagIterator: the root element is the first element walked, whatever its
  // name, and Parser.next hands out every verb it meets: a bare verb document runs.
  it('a bare <Say> document runs, with a warning', async () => {
    const { h, call } = await run('<Say>just this</Say>');
    expect(h.verbs(call.sid)).toEqual(['Say']);
    expect(call.duration).toBeGreaterThan(0);
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['12201', 1]]);
  });

  it('a <response> root runs its verbs, with a warning', async () => {
    const { h, call } = await run('<response><Say>a</Say><Hangup/></response>');
    expect(h.verbs(call.sid)).toEqual(['Say', 'Hangup']);
    expect(h.notifications.map((n) => n.code)).toEqual(['12201']);
  });

  // VoiceInterpreter Redirecting / caching / startDialing: an empty Redirect, Play or Dial
  // goes on with the next verb (the Dial without its action).
  it('an empty Redirect, Play or Dial goes on to the next verb; the Dial requests no action', async () => {
    const { h, call } = await run(rcml('<Redirect/><Play/><Dial action="/a"/><Say>end</Say>'), {
      '/a': rcml(''),
    });
    expect(h.verbs(call.sid)).toEqual(['Redirect', 'Play', 'Dial', 'Say']);
    expect(h.requests.filter((r) => r.kind !== 'rcml')).toEqual([]);
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([
      ['12203', 1],
      ['12203', 1],
      ['12203', 1],
    ]);
  });

  // BaseVoiceInterpreter.SendingSms: an empty body is error 14103 and the interpreter stops.
  it('an empty Sms runs the verbs before it, then error 14103 and hang-up', async () => {
    const { h, call } = await run(rcml('<Say>first</Say><Sms/><Say>never</Say>'));
    expect(h.verbs(call.sid)).toEqual(['Say', 'Sms']);
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([
      ['14103', 1],
      ['14103', 0],
    ]);
    expect(call.status).toBe('completed');
    expect(h.messages).toEqual([]);
  });

  // rcml/Parser.next: a verb that is a child of the current verb is skipped.
  it('a verb nested where it does not belong is skipped with a warning', async () => {
    const { h, call } = await run(rcml('<Gather><Dial>+1</Dial><Say>press</Say></Gather><Say>after</Say>'));
    expect(h.verbs(call.sid)).toEqual(['Gather', 'Gather/Say', 'Say']);
    expect(legsOf(h, call.sid)).toEqual([]);
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['12202', 1]]);
  });
});

describe('Conference wait and action', () => {
  const waiting = (music: string) =>
    harness({
      '/c': rcml(
        `<Dial action="/a"><Conference startConferenceOnEnter="false" waitUrl="/music">room</Conference></Dial>`,
      ),
      '/music': music,
      '/a': rcml(''),
    });

  // VoiceInterpreter.onDiskCacheResponse (playWaitUrlPending) collects the wait document's Say
  // and Play once, then onEndMessage plays the list in a loop (playWaitUrl, Short.MAX_VALUE).
  it('fetches the waitUrl document once and loops its Say and Play', async () => {
    const h = waiting(rcml('<Say>Please hold on.</Say><Say>Thanks</Say>'));
    h.engine.setParty('+15550001', { hangupAfter: 20 });
    const call = await callIn(h, '/c');
    expect(call.duration).toBe(20);
    expect(h.requests.filter((r) => r.kind === 'conference-wait')).toHaveLength(1);
  });

  // VoiceInterpreter.onTagMessage: with playWaitUrlPending, a tag that is neither Play nor Say
  // goes to hangingUp.
  it('any other verb in the wait document hangs the caller up', async () => {
    const h = waiting(rcml('<Say>hold</Say><Pause length="5"/>'));
    const call = await callIn(h, '/c');
    expect(call).toMatchObject({ status: 'completed', duration: 0 });
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['13238', 1]]);
    expect(h.engine.listConferences()[0].participants).toEqual([]);
  });

  // VoiceInterpreter.FinishConferencing.execute: the action request carries parameters() alone.
  it('the conference action gets plain voice parameters', async () => {
    const h = harness({
      '/c': rcml('<Dial action="/a"><Conference>room</Conference></Dial>'),
      '/a': rcml(''),
    });
    h.engine.setParty('+15550001', { hangupAfter: 0.5 });
    h.engine.setNumber('+15559999', { voiceUrl: 'http://app.test/c' });
    h.engine.incomingCall('+15550001', '+15559999');
    h.engine.setParty('+15550002', { hangupAfter: 3 });
    h.engine.incomingCall('+15550002', '+15559999');
    await h.engine.runUntilIdle();
    const action = h.requests.find((r) => r.kind === 'action')!;
    expect(Object.keys(action.params).filter((k) => k.startsWith('Dial'))).toEqual([]);
    expect(action.params.CallSid).toMatch(/^CA/);
  });
});
