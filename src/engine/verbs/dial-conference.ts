import type { ConferenceNoun, Dial, HttpMethod, Verb } from '../../rcml/model.js';
import { conferenceDefaults } from '../../rcml/verbs/conference.js';
import { dialDefaults } from '../../rcml/verbs/dial.js';
import type { Conference } from '../conferences.js';
import { Interrupted } from '../errors.js';
import { finish } from './dial-outcome.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * `<Dial><Conference>`: joins the account's room of that name (full at `maxParticipants`:
 * next verb). Until a participant with `startConferenceOnEnter` is in, the `waitUrl` plays
 * (see `waitForStart`); then the call stays until it hangs up, `timeLimit` passes, or the room
 * ends (a participant with `endConferenceOnExit` left). The action gets the voice parameters
 * alone, as the platform's VoiceInterpreter.FinishConferencing sends them.
 */
export async function dialConference(
  ctx: VerbContext,
  verb: Dial,
  noun: ConferenceNoun,
): Promise<VerbOutcome> {
  const max = noun.maxParticipants ?? conferenceDefaults.maxParticipants;
  const joining = ctx.services.joinConference(
    noun.name.trim(),
    max,
    {
      muted: noun.muted ?? conferenceDefaults.muted,
      startConferenceOnEnter: noun.startConferenceOnEnter ?? conferenceDefaults.startConferenceOnEnter,
      endConferenceOnExit: noun.endConferenceOnExit ?? conferenceDefaults.endConferenceOnExit,
      beep: noun.beep ?? conferenceDefaults.beep,
    },
    ctx.signal,
  );
  // A lone engine seats at once; awaited only when the room's node is asked (same turn otherwise).
  const { room, seat } = joining instanceof Promise ? await joining : joining;
  // Stopped (hung up, redirected) while the room's node was asked for a seat.
  if (!seat && ctx.signal.aborted) throw Interrupted.of(ctx.signal.reason ?? 'ended');
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
    plain: true,
  });
}

/** Warning when a conference wait document holds a verb other than Say or Play. */
export const CONFERENCE_WAIT_VERB_CODE = '13238';

const HANGUP: VerbOutcome = { kind: 'hangup' };

/**
 * Plays the `waitUrl` until the room starts or ends, as the platform's VoiceInterpreter does:
 * a URL ending in `wav` is played as audio; otherwise the document is fetched once and its Say
 * and Play verbs loop. Any other verb in it hangs the caller up (VoiceInterpreter.onTagMessage,
 * "neither Play or Say"). Silence without a `waitUrl` or when it cannot be fetched. Returns an
 * outcome when the caller is to hang up, undefined when the room started or ended.
 */
async function waitForStart(
  ctx: VerbContext,
  room: Conference,
  noun: ConferenceNoun,
): Promise<VerbOutcome | undefined> {
  const url = noun.waitUrl ? ctx.resolveUrl(noun.waitUrl) : undefined;
  const method: HttpMethod = noun.waitMethod ?? conferenceDefaults.waitMethod;
  if (noun.waitUrl && !url) ctx.notify('11100', 1, `Conference: invalid waitUrl '${noun.waitUrl}'`);
  try {
    const loop = url ? await waitVerbs(ctx, url, method) : [];
    if (loop === undefined) return HANGUP;
    while (room.status === 'init') {
      const before = ctx.now();
      for (const verb of loop) {
        if (room.status !== 'init') return undefined;
        await ctx.run(verb);
      }
      // A wait document that takes no time (or none at all): wait in silence.
      if (room.status === 'init' && ctx.now() === before) await ctx.wait(24 * 3600);
    }
  } catch (err) {
    if (!(err instanceof Interrupted) || err.reason !== 'conference') throw err;
  }
  return undefined;
}

/** The Say and Play verbs to loop, or undefined when the document holds another verb. */
async function waitVerbs(ctx: VerbContext, url: string, method: HttpMethod): Promise<Verb[] | undefined> {
  if (/wav$/i.test(new URL(url).pathname)) return [{ verb: 'Play', url }];
  const doc = await ctx.services.loadDocument(url, method, 'conference-wait', undefined);
  if (ctx.signal.aborted || ctx.services.ended) throw Interrupted.of('ended');
  if (!doc.ok) {
    ctx.notify(doc.code, doc.log, doc.message, doc.url);
    return [];
  }
  const other = doc.verbs.find((v) => v.verb !== 'Say' && v.verb !== 'Play');
  if (other) {
    const name = other.verb === 'Unknown' ? other.name : other.verb;
    ctx.notify(
      CONFERENCE_WAIT_VERB_CODE,
      1,
      `Conference: <${name}> in the waitUrl document (only Say and Play); the caller is hung up`,
      doc.url,
    );
    return undefined;
  }
  return doc.verbs;
}
