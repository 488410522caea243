import type { ConferenceNoun, Dial, HttpMethod } from '../../rcml/model.js';
import { conferenceDefaults } from '../../rcml/verbs/conference.js';
import { dialDefaults } from '../../rcml/verbs/dial.js';
import type { Call } from '../call.js';
import type { Conference, Participant } from '../conferences.js';
import { loadDocument } from '../documents.js';
import { Interrupted } from '../errors.js';
import type { ConferenceAction } from '../types.js';
import { finish } from './dial-outcome.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * `<Dial><Conference>`: joins the account's room of that name (full at `maxParticipants`:
 * next verb). Until a participant with `startConferenceOnEnter` is in, the `waitUrl` document
 * loops; then the call stays until it hangs up, `timeLimit` passes, or the room ends (a
 * participant with `endConferenceOnExit` left). The action gets `DialCallStatus=completed` and
 * `DialCallDuration` (seconds in the room).
 */
export async function dialConference(
  ctx: VerbContext,
  verb: Dial,
  noun: ConferenceNoun,
): Promise<VerbOutcome> {
  const call = ctx.owner;
  const rt = call.rt;
  const room = rt.conferences.open(
    call.record.accountSid,
    noun.name.trim(),
    () => ctx.newSid('CF'),
    ctx.now(),
  );
  const max = noun.maxParticipants ?? conferenceDefaults.maxParticipants;
  if (room.participants.size >= max) {
    ctx.notify('engine.conference-full', 1, `conference '${room.name}' is full (${max} participants)`);
    return NEXT;
  }
  const joinedAt = ctx.now();
  const me: Participant = {
    call,
    muted: noun.muted ?? conferenceDefaults.muted,
    startConferenceOnEnter: noun.startConferenceOnEnter ?? conferenceDefaults.startConferenceOnEnter,
    endConferenceOnExit: noun.endConferenceOnExit ?? conferenceDefaults.endConferenceOnExit,
    beep: noun.beep ?? conferenceDefaults.beep,
    joinedAt,
  };
  room.participants.set(call.record.sid, me);
  call.conferenceSid = room.sid;
  emit(room, call, 'join');
  if (me.startConferenceOnEnter && room.status === 'init') setStatus(room, call, 'in-progress');
  // Only a running room beeps: callers still waiting for the start hear the wait music instead.
  if (me.beep && room.status === 'in-progress') beep(room, call, 'join');
  try {
    if (room.status === 'init') {
      const outcome = await waitForStart(ctx, room, noun);
      if (outcome) return outcome;
    }
    if (room.status === 'in-progress') {
      try {
        await ctx.wait(verb.timeLimit ?? dialDefaults.timeLimit);
      } catch (err) {
        if (!(err instanceof Interrupted) || err.reason !== 'conference') throw err;
      }
    }
  } catch (err) {
    // Hung up or replaced: `finish` still reports to the action when the caller hung up.
    if (!(err instanceof Interrupted)) throw err;
  } finally {
    leave(room, me);
  }
  return finish(ctx, verb, {
    status: 'completed',
    duration: Math.ceil((ctx.now() - joinedAt) / 1000),
    ringDuration: 0,
  });
}

/**
 * Loops the `waitUrl` document (silence without one) until the room starts or ends. Returns an
 * outcome when the wait document hangs up, undefined when the room started or ended.
 */
async function waitForStart(
  ctx: VerbContext,
  room: Conference,
  noun: ConferenceNoun,
): Promise<VerbOutcome | undefined> {
  let url = noun.waitUrl ? ctx.resolveUrl(noun.waitUrl) : undefined;
  let method: HttpMethod = noun.waitMethod ?? conferenceDefaults.waitMethod;
  if (noun.waitUrl && !url) ctx.notify('11100', 1, `Conference: invalid waitUrl '${noun.waitUrl}'`);
  try {
    while (room.status === 'init') {
      const before = ctx.now();
      if (url) {
        const doc = await loadDocument(ctx.owner, url, method, 'conference-wait', undefined);
        if (ctx.signal.aborted || ctx.owner.ended) throw Interrupted.of('ended');
        if (!doc.ok) {
          ctx.notify(doc.code, doc.log, doc.message, doc.url);
          url = undefined;
          continue;
        }
        for (const verb of doc.verbs) {
          if (room.status !== 'init') return undefined;
          const outcome = await ctx.run(verb);
          if (outcome.kind === 'hangup' || outcome.kind === 'end') return outcome;
          if (outcome.kind === 'fetch') {
            ({ url, method } = outcome);
            break;
          }
        }
      }
      // A wait document that takes no time (or none at all): wait in silence.
      if (room.status === 'init' && ctx.now() === before) await ctx.wait(24 * 3600);
    }
  } catch (err) {
    if (!(err instanceof Interrupted) || err.reason !== 'conference') throw err;
  }
  return undefined;
}

/** Takes a participant out; an ender ends the room, the last one out closes it. */
function leave(room: Conference, me: Participant): void {
  const call = me.call;
  if (room.participants.get(call.record.sid) !== me) return;
  room.participants.delete(call.record.sid);
  if (call.conferenceSid === room.sid) call.conferenceSid = null;
  emit(room, call, 'leave');
  if (room.status === 'completed') return;
  if ((me.endConferenceOnExit && room.status === 'in-progress') || room.participants.size === 0) {
    setStatus(room, call, 'completed');
  } else if (me.beep && room.status === 'in-progress') {
    beep(room, call, 'leave');
  }
}

/** The entry or exit tone of a running room (an event: the tone takes no one's time). */
function beep(room: Conference, call: Call, on: 'join' | 'leave'): void {
  const rt = call.rt;
  rt.listener?.({
    type: 'conference',
    at: rt.clock.now(),
    callSid: call.record.sid,
    conferenceSid: room.sid,
    name: room.name,
    action: 'beep',
    tone: { on, seconds: rt.settings.beepSeconds },
  });
}

function setStatus(room: Conference, by: Call, status: 'in-progress' | 'completed'): void {
  room.status = status;
  room.dateUpdated = by.rt.clock.now();
  emit(room, by, status === 'in-progress' ? 'start' : 'end', false);
  // Everyone waiting for the start (or in a room that ended) stops waiting.
  for (const p of room.participants.values()) p.call.interrupt('conference');
}

/** Reports a room event; `withCall` false for room-wide events (start, end). */
export function emit(room: Conference, call: Call, action: ConferenceAction, withCall = true): void {
  call.rt.listener?.({
    type: 'conference',
    at: call.rt.clock.now(),
    callSid: withCall ? call.record.sid : undefined,
    conferenceSid: room.sid,
    name: room.name,
    action,
  });
}
