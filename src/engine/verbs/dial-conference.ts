import type { ConferenceNoun, Dial, HttpMethod } from '../../rcml/model.js';
import { conferenceDefaults } from '../../rcml/verbs/conference.js';
import { dialDefaults } from '../../rcml/verbs/dial.js';
import type { Conference } from '../conferences.js';
import { Interrupted } from '../errors.js';
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
  const max = noun.maxParticipants ?? conferenceDefaults.maxParticipants;
  const { room, seat } = ctx.services.joinConference(noun.name.trim(), max, {
    muted: noun.muted ?? conferenceDefaults.muted,
    startConferenceOnEnter: noun.startConferenceOnEnter ?? conferenceDefaults.startConferenceOnEnter,
    endConferenceOnExit: noun.endConferenceOnExit ?? conferenceDefaults.endConferenceOnExit,
    beep: noun.beep ?? conferenceDefaults.beep,
  });
  if (!seat) {
    ctx.notify('engine.conference-full', 1, `conference '${room.name}' is full (${max} participants)`);
    return NEXT;
  }
  const joinedAt = seat.joinedAt;
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
    ctx.services.leaveConference(room, seat);
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
        const doc = await ctx.services.loadDocument(url, method, 'conference-wait', undefined);
        if (ctx.signal.aborted || ctx.services.ended) throw Interrupted.of('ended');
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
