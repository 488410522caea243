import type { HttpMethod, Verb } from '../../rcml/model.js';
import type { Call } from '../call.js';
import type { InterruptReason } from '../errors.js';
import type { FetchResult } from '../fetcher.js';
import type {
  CallRecord,
  CallStatus,
  GatherRecord,
  MessageRecord,
  NotificationRecord,
  RecordingRecord,
} from '../records.js';
import type { EngineSettings } from '../settings.js';
import type { PartyInput, RequestKind } from '../types.js';

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
  /** End the call with a given status (Reject). */
  | { kind: 'end'; status: CallStatus };

/** Shared `next` outcome, so the common case allocates nothing. */
export const NEXT: VerbOutcome = { kind: 'next' };

/**
 * What a verb can do to the call it runs on. Waits reject with `Interrupted` when the call ends,
 * its script is replaced (live modification), or (when asked) input arrives.
 */
export interface VerbContext {
  readonly call: Readonly<CallRecord>;
  /** The live call object (for verbs that connect calls: Dial, Enqueue). */
  readonly owner: Call;
  /** Aborted when the call ends or another document replaces this script. */
  readonly signal: ScriptSignal;
  /** URL of the document being run (relative URLs resolve against it). */
  readonly documentUrl: string;
  readonly settings: EngineSettings;
  now(): number;
  /** Waits `seconds` of clock time. */
  wait(seconds: number): Promise<void>;
  /**
   * Starts collecting party input for this verb; with `interrupt`, the first input also
   * interrupts the pending wait (reason `input`), as keys do to Gather prompts.
   */
  listen(interrupt: boolean): void;
  /** Next collected input, waiting at most `seconds`; null on timeout. */
  nextInput(seconds: number): Promise<PartyInput | null>;
  /** Stops collecting; later input is not heard. */
  unlisten(): void;
  /** Absolute URL, or undefined when `url` is not a valid URI. */
  resolveUrl(url: string): string | undefined;
  newSid(prefix: string): string;
  notify(code: string, log: 0 | 1, message: string, url?: string): void;
  gather(record: GatherRecord): void;
  recording(record: RecordingRecord, wav: Uint8Array): void;
  message(record: MessageRecord): void;
  /** Fetches media bytes (tracked, logged). */
  fetchMedia(url: string): Promise<FetchResult>;
  /** Seconds of a media URL, from its WAV header when fetchable; cached per URL. */
  mediaSeconds(url: string): Promise<number>;
  /** Fire-and-forget request (callbacks, actions of a call that has ended). */
  send(kind: RequestKind, url: string, method: HttpMethod, params: Record<string, string>): void;
  /** Request parameters of this call (voice parameters) plus `extra`. */
  params(extra?: Record<string, string>): Record<string, string>;
  /** Runs another verb in this context (Gather prompts). */
  run(verb: Verb): Promise<VerbOutcome>;
  /** True while the call has not been answered. */
  isRinging(): boolean;
}

/**
 * Tells a running script it was stopped (call ended or document replaced). Lighter than an
 * AbortSignal: one is created per script run.
 */
export interface ScriptSignal {
  readonly aborted: boolean;
  /** Why the script stopped: `ended` (call over), `replaced` (Redirect-like), `modified` (live modification). */
  readonly reason?: InterruptReason;
  /** Runs `cleanup` when the script stops (at once if it already has). */
  onAbort(cleanup: () => void): void;
}

/** One verb's behaviour. Every verb file exports one of these. */
export type VerbHandler<V extends Verb = Verb> = (ctx: VerbContext, verb: V) => Promise<VerbOutcome>;

export type { NotificationRecord };
