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
  const all = verb.nouns.filter((n): n is LegNoun => n.noun !== 'Conference' && n.noun !== 'Queue');
  // No target (warned when the document was read): the platform goes on without the action.
  if (all.length === 0) return NEXT;
  const nouns = all.slice(0, MAX_DIAL_NOUNS);
  if (all.length > MAX_DIAL_NOUNS) {
    ctx.notify(
      DIAL_NOUNS_CODE,
      1,
      `Dial: ${all.length} targets, at most ${MAX_DIAL_NOUNS} are dialed; the other ${all.length - MAX_DIAL_NOUNS} get no leg`,
    );
  }
  const services = ctx.services;
  const timeout = verb.timeout ?? dialDefaults.timeout;
  const from = verb.callerId?.trim() || ctx.call.from;
  // Legs count as the account's live calls: none is placed past its limit.
  let room = services.legRoom();
  const placed = nouns.flatMap((noun) => {
    const options = legOptions(ctx, noun, from, timeout);
    if (!placeable(options.to)) {
      ctx.notify(DIAL_TARGET_CODE, 1, `Dial: '${options.to}' cannot be dialed; no leg placed`);
      return [];
    }
    if (room <= 0) {
      ctx.notify(
        DIAL_LIVE_CALLS_CODE,
        1,
        `Dial: '${options.to}' not dialed: the account holds as many live calls as the server allows; no leg placed`,
      );
      return [];
    }
    room--;
    return [{ noun, options }];
  });
  if (placed.length === 0) {
    // No leg at all: the platform's VoiceInterpreter requests the action with
    // DialCallStatus=failed (testsuite DialActionTest.testDialActionInvalidCall).
    return finish(ctx, verb, { status: 'failed', duration: 0, ringDuration: 0 });
  }
  const legs = placed.map((p) => services.startLeg(p.options));
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
  const noun = placed[legs.indexOf(winner)].noun;
  if (noun.noun === 'Number' && noun.sendDigits) winner.sendDigits(noun.sendDigits);
  if (noun.url) {
    const url = ctx.resolveUrl(noun.url);
    const screening =
      url === undefined ? 'stopped' : await services.screenLeg(winner, url, noun.method ?? 'POST');
    if (!url) ctx.notify('11100', 0, `Dial: invalid screening URL '${noun.url}'`);
    if (screening !== 'end' || ctx.signal.aborted || services.ended) {
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
      if (screening === 'hangup' && !ctx.signal.aborted && !services.ended) {
        // A Hangup in the screening document hangs the caller up too (the platform's
        // VoiceInterpreter.Bridging: anything but the document's End goes to hangingUp); the
        // action is requested without running its answer, as when the caller hangs up.
        notifyAction(ctx, verb, outcome);
        return HANGUP;
      }
      return finish(ctx, verb, outcome);
    }
  }
  const result = await services.bridgeLeg(winner, {
    timeLimit: verb.timeLimit ?? dialDefaults.timeLimit,
    record: verb.record ?? dialDefaults.record,
    // Not in the platform's documented defaults; its interpreter reads it, off unless true.
    hangupOnStar: verb.hangupOnStar === true,
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

/** Warning for a Dial target that is no dialable address (the platform's Dial range). */
export const DIAL_TARGET_CODE = '13223';

/** Most Number, Client and Sip targets one Dial rings, as on the platform. */
export const MAX_DIAL_NOUNS = 10;

/** Warning for a Dial with more than {@link MAX_DIAL_NOUNS} targets (those past it get no leg). */
export const DIAL_NOUNS_CODE = '13224';

/** Warning for a Dial target not dialed because the account is at its live-call limit. */
export const DIAL_LIVE_CALLS_CODE = '13225';

/**
 * True for an address a leg can ring: a phone number (digits, `*`, `#`, a leading `+`; spaces,
 * dashes, dots and brackets ignored), `client:` with a name, or a `sip:`/`sips:` URI with a host.
 */
export function placeable(address: string): boolean {
  if (/^client:/i.test(address)) return address.slice(7).trim() !== '';
  if (/^sips?:/i.test(address)) return /^sips?:(?:[^@\s]+@)?[^@\s;?]+/i.test(address);
  return /^\+?[0-9*#]+$/.test(address.replace(/[\s\-.()]/g, ''));
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
