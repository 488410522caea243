import type { ConferenceNoun, Dial, DialNoun, QueueNoun } from '../../rcml/model.js';
import { dialDefaults } from '../../rcml/verbs/dial.js';
import type { BridgeResult } from '../bridge.js';
import { splitTarget } from '../params.js';
import { type CallEventName, parseCallEvents } from '../status-callbacks.js';
import { dialConference } from './dial-conference.js';
import { type DialOutcome, finish, notifyAction } from './dial-outcome.js';
import { dialQueue } from './dial-queue.js';
import { type Leg, NEXT, type VerbContext, type VerbOutcome } from './types.js';

export { type DialOutcome, finish } from './dial-outcome.js';

type LegNoun = Exclude<DialNoun, ConferenceNoun | QueueNoun>;

/**
 * `<Dial>`: rings every Number, Client and Sip noun in parallel (first answer wins, the others
 * are canceled), screens the callee with the noun's `url`, bridges until a side hangs up or
 * `timeLimit`, and requests the action with `DialCallStatus`, `DialCallSid`,
 * `DialCallDuration`, `DialRingDuration` (and `RecordingUrl`). Conference and Queue nouns
 * take the whole verb.
 */
export async function dialVerb(ctx: VerbContext, verb: Dial): Promise<VerbOutcome> {
  const queue = verb.nouns.find((n): n is QueueNoun => n.noun === 'Queue');
  if (queue) return dialQueue(ctx, verb, queue);
  const conference = verb.nouns.find((n): n is ConferenceNoun => n.noun === 'Conference');
  if (conference) return dialConference(ctx, verb, conference);
  const nouns = verb.nouns.filter((n): n is LegNoun => n.noun !== 'Conference' && n.noun !== 'Queue');
  if (nouns.length === 0) {
    ctx.notify('rcml.required', 1, '<Dial> has no target; skipped');
    return NEXT;
  }
  const services = ctx.services;
  const timeout = verb.timeout ?? dialDefaults.timeout;
  const from = verb.callerId?.trim() || ctx.call.from;
  const legs = nouns.map((noun) => services.startLeg(legOptions(ctx, noun, from, timeout)));
  const ring = await services.ringLegs(legs, ctx.signal);
  const ringDuration = Math.ceil(ring.ringMs / 1000);
  const winner = ring.winner;
  if (!winner) {
    return finish(ctx, verb, {
      // The Dial `timeout` ran out: the platform cancels the legs still ringing and reports
      // `canceled` (the legs' own records keep `no-answer`).
      status: ring.status === 'no-answer' ? 'canceled' : ring.status,
      duration: 0,
      ringDuration,
      callSid: legs.at(-1)?.record.sid,
    });
  }
  const noun = nouns[legs.indexOf(winner)];
  if (noun.noun === 'Number' && noun.sendDigits) winner.deliver({ kind: 'dtmf', keys: noun.sendDigits });
  if (noun.url) {
    const url = ctx.resolveUrl(noun.url);
    const screened = url !== undefined && (await services.screenLeg(winner, url, noun.method ?? 'POST'));
    if (!url) ctx.notify('11100', 0, `Dial: invalid screening URL '${noun.url}'`);
    if (!screened || ctx.signal.aborted || services.ended) {
      // A leg redirected by a live modification is its own call now: leave it be.
      const taken = services.isReleased(winner);
      if (!winner.ended && !taken) winner.end('completed');
      const outcome: DialOutcome = {
        // Caller gone or leg taken away before the bridge: canceled, as while ringing.
        status: taken || services.ended ? 'canceled' : 'no-answer',
        callSid: winner.record.sid,
        duration: 0,
        ringDuration,
      };
      return finish(ctx, verb, outcome);
    }
  }
  const result = await services.bridgeLeg(winner, {
    timeLimit: verb.timeLimit ?? dialDefaults.timeLimit,
    record: verb.record ?? dialDefaults.record,
    signal: ctx.signal,
  });
  release(winner, result, services.ended);
  const outcome: DialOutcome = {
    status: 'completed',
    callSid: winner.record.sid,
    duration: result.duration,
    ringDuration,
    recordingUrl: result.recording?.url,
  };
  if (result.endedBy === 'time-limit' && !ctx.signal.aborted) {
    // `timeLimit` ends the whole call: the callee is hung up above, the caller now; the action
    // is requested but its document does not run.
    notifyAction(ctx, verb, outcome);
    return HANGUP;
  }
  return finish(ctx, verb, outcome);
}

const HANGUP: VerbOutcome = { kind: 'hangup' };

/** What happens to the callee when the bridge ends. */
function release(callee: Leg, result: BridgeResult, callerEnded: boolean): void {
  if (callee.ended) return;
  // A live modification that moved or kept the callee has already dealt with it.
  if (result.release === 'keep' && !callerEnded) return;
  callee.end('completed');
}

function legOptions(ctx: VerbContext, noun: LegNoun, from: string, timeout: number) {
  const target =
    noun.noun === 'Number'
      ? { address: noun.number.trim() }
      : noun.noun === 'Client'
        ? { address: `client:${noun.name.trim()}` }
        : splitTarget(noun.uri.trim());
  let callbacks: { url: string; method: 'GET' | 'POST'; events: Set<CallEventName> } | undefined;
  if (noun.statusCallback) {
    const url = ctx.resolveUrl(noun.statusCallback);
    const events = parseCallEvents(noun.statusCallbackEvent);
    if (!url) ctx.notify('11100', 1, `Dial: invalid statusCallback URL '${noun.statusCallback}'`);
    else if (typeof events !== 'string')
      callbacks = { url, method: noun.statusCallbackMethod ?? 'POST', events };
  }
  return { to: target.address, from, timeout, headers: target.headers, callbacks };
}
