import type { HttpMethod, Verb } from '../../rcml/model.js';
import type { BridgeOptions, BridgeResult } from '../bridge.js';
import type { Clock } from '../clock/clock.js';
import type { Conference, Participant, ParticipantOptions } from '../conferences.js';
import type { LoadedDocument } from '../documents.js';
import type { Interrupted, InterruptReason } from '../errors.js';
import type { FetchResult } from '../fetcher.js';
import type { LegOptions, ScreeningResult } from '../legs.js';
import type {
  LineEndReason,
  LineRecording,
  MediaSource,
  PlayFailed,
  RecordOptions,
} from '../ports/call-line.js';
import type {
  CallRecord,
  CallStatus,
  GatherRecord,
  MessageRecord,
  NotificationRecord,
  RecordingRecord,
} from '../records.js';
import type { ScriptSignal } from '../script-signal.js';
import type { EngineSettings } from '../settings.js';
import type { EngineEventListener, PartyInput, RequestKind } from '../types.js';

/** What the interpreter does after a verb. */
export type VerbOutcome =
  /** Run the next verb (end of document hangs up). */
  | { kind: 'next' }
  /** Fetch a document that replaces the current one (Redirect, actions). */
  | {
      kind: 'fetch';
      url: string;
      method: HttpMethod;
      requestKind: RequestKind;
      params?: Record<string, string>;
    }
  /** Hang up the call. */
  | { kind: 'hangup' }
  /** End the call with a given status (Reject), telling its line why. */
  | { kind: 'end'; status: CallStatus; reason?: LineEndReason };

/** Shared `next` outcome, so the common case allocates nothing. */
export const NEXT: VerbOutcome = { kind: 'next' };

/**
 * What a verb can do to the call it runs on. Waits reject with `Interrupted` when the call ends,
 * its script is replaced (live modification), or (when asked) input arrives.
 */
export interface VerbContext {
  readonly call: Readonly<CallRecord>;
  /** What acts on the call itself and connects it to others (Dial, Enqueue, Hold...). */
  readonly services: VerbServices;
  /** Aborted when the call ends or another document replaces this script. */
  readonly signal: ScriptSignal;
  /** URL of the document being run (relative URLs resolve against it). */
  readonly documentUrl: string;
  readonly settings: EngineSettings;
  now(): number;
  /** Waits `seconds` of clock time. */
  wait(seconds: number): Promise<void>;
  /**
   * Plays `source` on the call's line (its far end hears it): resolves when it has played (with
   * `'failed'` when the line could not play it: audio it cannot decode, speech that failed),
   * rejects with `Interrupted` as `wait` does (a key with `listen(true)`, a hang-up, a redirect).
   */
  play(source: MediaSource): Promise<PlayFailed | undefined>;
  /**
   * Records the far end on the call's line (Record). Never rejects: when a hang-up or redirect
   * stops it, `interrupted` comes back with what was recorded.
   */
  record(options: RecordOptions): Promise<{ recording: LineRecording; interrupted?: Interrupted }>;
  /**
   * The audio source of a Play URL (its length, and its bytes when the line plays real audio);
   * null when the media cannot be fetched (warning 13233 written).
   */
  audio(url: string): Promise<MediaSource | null>;
  /**
   * Starts collecting party input for this verb; with `interrupt`, the first input also
   * interrupts the pending wait (reason `input`), as keys do to Gather prompts.
   */
  listen(interrupt: boolean): void;
  /** Next collected input, waiting at most `seconds`; null on timeout. */
  nextInput(seconds: number): Promise<PartyInput | null>;
  /** Stops collecting; later input is not heard, input collected and not taken is discarded. */
  unlisten(): void;
  /** Reports input that was heard but not used (`input-discarded` event), e.g. keys past `numDigits`. */
  discardInput(input: PartyInput, reason: string): void;
  /** Absolute URL, or undefined when `url` is not a valid URI. */
  resolveUrl(url: string): string | undefined;
  newSid(prefix: string): string;
  notify(code: string, log: 0 | 1, message: string, url?: string): void;
  gather(record: GatherRecord): void;
  recording(record: RecordingRecord, wav: Uint8Array): void;
  message(record: MessageRecord): void;
  /** Fetches media bytes (tracked, logged). */
  fetchMedia(url: string): Promise<FetchResult>;
  /**
   * Seconds of a media URL, from its WAV header (a default length when it is no WAV file);
   * cached per URL. Null when the media cannot be fetched (warning 13233 written).
   */
  mediaSeconds(url: string): Promise<number | null>;
  /** Fire-and-forget request (callbacks, actions of a call that has ended). */
  send(kind: RequestKind, url: string, method: HttpMethod, params: Record<string, string>): void;
  /** Request parameters of this call (voice parameters) plus `extra`. */
  params(extra?: Record<string, string>): Record<string, string>;
  /** Runs another verb in this context (Gather prompts). */
  run(verb: Verb): Promise<VerbOutcome>;
  /**
   * Runs a verb in any context (the verb registry, handed down by the interpreter): documents
   * run inside a verb, such as queue wait documents, run their verbs in a context of their own.
   */
  readonly dispatch: VerbDispatch;
  /** True while the call has not been answered. */
  isRinging(): boolean;
}

/** A callee leg placed by a verb (Dial), as the verb sees it. */
export interface Leg {
  readonly record: Readonly<CallRecord>;
  readonly ended: boolean;
  /** Sends keys down the callee's line (Dial `sendDigits`). */
  sendDigits(digits: string): void;
  /** Ends the leg (`completed` hangs up an answered leg). */
  end(status: CallStatus): void;
}

/** Outcome of ringing legs in parallel (see `ringLegs`). */
export interface LegRing {
  /** The first leg to answer; the others were canceled. */
  winner?: Leg;
  status: CallStatus;
  /** Ms from the start of ringing to the answer (or to the end of ringing). */
  ringMs: number;
}

/**
 * The services that act on the verb's own call, bound to it by the interpreter: the verb never
 * holds the call object itself. Legs it places come back as {@link Leg} handles.
 */
export interface VerbServices {
  /** True once the call has ended. */
  readonly ended: boolean;
  /** The engine's clock (timers of queue waits). */
  readonly clock: Clock;
  /** The engine's inspection hook, if any. */
  readonly listener: EngineEventListener | undefined;
  /** Identifies the engine running the call: per-engine services (queues) are kept by it. */
  readonly engine: object;
  /** Interrupts the call's pending wait (a queue match, a wait limit). */
  interrupt(reason: InterruptReason): void;
  /** Fetches and parses a document for the call (the document itself when it is at hand at once). */
  loadDocument(
    url: string,
    method: HttpMethod,
    kind: RequestKind,
    params: Record<string, string> | undefined,
  ): LoadedDocument | Promise<LoadedDocument>;
  /** Puts the call on hold or takes it off (Hold, Resume). */
  setHeld(held: boolean): void;
  /** Places a callee leg of this call, ringing its party. */
  startLeg(options: LegOptions): Leg;
  /** How many more live calls the call's account may have now (Infinity: no limit). */
  legRoom(): number;
  /** Waits for the first leg to answer and cancels the others (they stop with `signal`). */
  ringLegs(legs: readonly Leg[], signal: ScriptSignal): Promise<LegRing>;
  /** Runs a screening document on an answered leg: how it ended. */
  screenLeg(leg: Leg, url: string, method: HttpMethod): Promise<ScreeningResult>;
  /** True once a live modification took the leg out of its Dial. */
  isReleased(leg: Leg): boolean;
  /** Connects this call with a leg (this call is leg `a` of the bridge). */
  bridgeLeg(leg: Leg, options: BridgeOptions): Promise<BridgeResult>;
  /** Connects this call (leg `a`) with the call of `other` (leg `b`): two matched queue calls. */
  bridgeWith(other: VerbServices, options: BridgeOptions): Promise<BridgeResult>;
  /** Takes the call out of the bridge it is in, if any (`modified`). */
  leaveBridge(): void;
  /**
   * Joins the account's conference room `name`; `seat` undefined when it is full at `max`.
   * A promise when the room's owner is asked first (a room spanning the nodes of a cluster).
   */
  joinConference(
    name: string,
    max: number,
    options: ParticipantOptions,
    signal?: ScriptSignal,
  ): { room: Conference; seat?: Participant } | Promise<{ room: Conference; seat?: Participant }>;
  /** Takes the call's seat out of its room (an ender ends it, the last one out closes it). */
  leaveConference(room: Conference, seat: Participant): void;
}

/** Runs one verb in the given context. */
export type VerbDispatch = (ctx: VerbContext, verb: Verb) => Promise<VerbOutcome>;

/** One verb's behaviour. Every verb file exports one of these. */
export type VerbHandler<V extends Verb = Verb> = (ctx: VerbContext, verb: V) => Promise<VerbOutcome>;

export type { NotificationRecord, ScriptSignal };
