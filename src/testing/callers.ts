/**
 * fast-check arbitraries of caller behaviour: key presses, phrases, hang-ups, call outcomes and
 * Poisson arrivals. Times are multiples of 0.1 s so that shrunk scenarios read well; every
 * arbitrary shrinks towards less input, earlier times and fewer calls.
 */
import fc from 'fast-check';
import {
  type ArrivalsSpec,
  arrivalsSpecSchema,
  type KeyPressSpec,
  keyPressSpecSchema,
  type PartySpec,
  partySpecSchema,
  type SpeechSpec,
  speechSpecSchema,
} from '../sim/check-schema.js';
import type { ScenarioInput } from '../sim/schema.js';

/** A party's behaviour as a scenario file writes it (the engine's `PartyBehaviour`). */
export type CallerBehaviour = NonNullable<ScenarioInput['parties']>[string];

/** A time in [0, max] seconds, in tenths. */
export function arbitraryTime(max: number): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: Math.round(max * 10) }).map((t) => t / 10);
}

/** Presses in time order (`CallerBehaviour.digits`): each a key of `alphabet` at a time. */
export function arbitraryKeyPresses(
  spec: KeyPressSpec = {},
): fc.Arbitrary<Array<{ at: number; keys: string }>> {
  const s = keyPressSpecSchema.parse(spec);
  const key = fc.constantFrom(...s.alphabet.split(''));
  const press = fc.record({ at: arbitraryTime(s.within), keys: key });
  const presses = fc.array(press, { maxLength: s.maxPresses }).map(sortByTime);
  if (!s.finishOnKey) return presses;
  const finish = s.finishOnKey;
  // Sometimes the last press is followed by the finishing key.
  return fc.tuple(presses, fc.boolean()).map(([list, finished]) => {
    const last = list.at(-1);
    return finished && last ? [...list.slice(0, -1), { at: last.at, keys: last.keys + finish }] : list;
  });
}

/** Phrases from `phrases` said at times in order (`CallerBehaviour.speech`). */
export function arbitrarySpeech(spec: SpeechSpec): fc.Arbitrary<Array<{ at: number; text: string }>> {
  const s = speechSpecSchema.parse(spec);
  const say = fc.record({ at: arbitraryTime(s.within), text: fc.constantFrom(...s.phrases) });
  return fc.array(say, { maxLength: s.max }).map(sortByTime);
}

/** A hang-up `within` seconds of the answer, or none (undefined). */
export function arbitraryHangup(within: number): fc.Arbitrary<number | undefined> {
  return fc.option(arbitraryTime(within), { nil: undefined });
}

/** What happens when the party is called; shrinks to the first of `outcomes`. */
export function arbitraryOutcome(
  outcomes: ReadonlyArray<NonNullable<CallerBehaviour['outcome']>> = ['answer', 'busy', 'no-answer', 'fail'],
): fc.Arbitrary<NonNullable<CallerBehaviour['outcome']>> {
  return fc.constantFrom(...outcomes);
}

/**
 * A party's behaviour from a spec (the same as a scenario file's `check.vary.parties` entry):
 * only the parts the spec names vary; the others stay as in `base`.
 */
export function arbitraryCaller(
  spec: PartySpec = {},
  base: CallerBehaviour = {},
): fc.Arbitrary<CallerBehaviour> {
  const s = partySpecSchema.parse(spec);
  const none = fc.constant(undefined);
  return fc
    .record({
      digits: s.keys ? arbitraryKeyPresses(s.keys) : none,
      speech: s.speech ? arbitrarySpeech(s.speech) : none,
      hangupAfter: s.hangup ? arbitraryHangup(s.hangup.within) : none,
      outcome: s.outcomes ? arbitraryOutcome(s.outcomes) : none,
      answerAfter: s.answerAfter ? arbitraryTime(s.answerAfter.max) : none,
    })
    .map((varied) => {
      const party: CallerBehaviour = { ...base };
      if (s.keys) setOrDrop(party, 'digits', varied.digits?.length ? varied.digits : undefined);
      if (s.speech) setOrDrop(party, 'speech', varied.speech?.length ? varied.speech : undefined);
      if (s.hangup) setOrDrop(party, 'hangupAfter', varied.hangupAfter);
      if (s.outcomes) setOrDrop(party, 'outcome', varied.outcome === 'answer' ? undefined : varied.outcome);
      if (s.answerAfter) setOrDrop(party, 'answerAfter', varied.answerAfter || undefined);
      return party;
    });
}

/** Inbound calls and their callers' behaviours, as scenario `calls` and `parties`. */
export interface Arrivals {
  calls: Array<{ at: number; from: string; to: string }>;
  parties: Record<string, CallerBehaviour>;
}

/**
 * A Poisson stream of calls to `spec.to` at `spec.rate` per second within `spec.within` seconds
 * (at most `spec.max`), each caller with its own address (`from` + a number) and a behaviour
 * from `spec.party`. Gaps are exponential (a fixed number of draws, enough that the window is
 * almost never cut short, so the count is Poisson); they shrink towards long gaps, i.e. fewer
 * calls in the window.
 */
export function arbitraryArrivals(spec: ArrivalsSpec): fc.Arbitrary<Arrivals> {
  const s = arrivalsSpecSchema.parse(spec);
  const RESOLUTION = 10_000;
  // u = k / RESOLUTION in [0, 1): the gap -ln(u)/rate grows without bound as k shrinks to 0.
  // Without fast-check's bias towards extremes, so that the gaps are exponential.
  const gap = fc
    .noBias(fc.integer({ min: 0, max: RESOLUTION - 1 }))
    .map((k) => -Math.log(k / RESOLUTION) / s.rate);
  const caller = s.party ? arbitraryCaller(s.party) : fc.constant(undefined);
  const mean = s.rate * s.within;
  const draws = Math.min(s.max, Math.ceil(mean + 4 * Math.sqrt(mean) + 5));
  return fc.array(fc.tuple(gap, caller), { minLength: draws, maxLength: draws }).map((list) => {
    const out: Arrivals = { calls: [], parties: {} };
    let t = 0;
    for (const [g, party] of list) {
      t += g;
      const at = Math.round(t * 10) / 10;
      if (!(at <= s.within)) break;
      const from = `${s.from}${String(out.calls.length + 1).padStart(2, '0')}`;
      out.calls.push({ at, from, to: s.to });
      if (party && Object.keys(party).length > 0) out.parties[from] = party;
    }
    return out;
  });
}

function sortByTime<T extends { at: number }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.at - b.at);
}

function setOrDrop<K extends keyof CallerBehaviour>(
  party: CallerBehaviour,
  key: K,
  value: CallerBehaviour[K],
): void {
  if (value === undefined) delete party[key];
  else party[key] = value;
}
