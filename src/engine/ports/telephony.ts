import type { SipHeaders } from '../params.js';
import type { CallRecord } from '../records.js';
import type { CallLine, MediaHandle, MediaSource, PlayOutcome } from './call-line.js';

/**
 * The `Telephony` port: how the engine places calls and joins lines together. The engine's
 * default is the simulated parties (a party answers, is busy, fails or never answers, on the
 * engine clock); `src/telephony/` places real SIP calls. Like {@link CallLine}, every method
 * returns promptly and reports later through callbacks.
 */

/** A call to place. */
export interface DialRequest {
  /** Number, `client:<name>` or `sip:` address, as the call's `To` (URI headers parsed into `headers`). */
  to: string;
  /** Caller id to present. */
  from: string;
  /** SIP headers to send (custom `X-...` ones; a repeated header's values top-most first). */
  headers?: SipHeaders;
  /** Seconds the engine lets it ring before it gives up (`no-answer`); the engine times it. */
  timeout: number;
  /** The engine's record of the outgoing call (sid, account, parent call...). */
  call: Readonly<CallRecord>;
}

/** Final statuses of a call that was never answered. */
export type DialFailure = 'busy' | 'no-answer' | 'failed' | 'canceled';

/**
 * What a dial attempt reports, each at most once, `ringing` before the others (an `answered`
 * with no `ringing` before it counts as both). Nothing after the attempt was canceled.
 */
export interface DialEvents {
  /** The far end rings (SIP 180/183). */
  ringing(): void;
  /** The far end answered; `line` is the call's line from now on (the engine attaches it). */
  answered(line: CallLine): void;
  /** The attempt failed (SIP 486 busy, 408/480 no-answer, other errors failed). */
  failed(status: DialFailure): void;
}

/** A dial under way. */
export interface DialAttempt {
  /** Gives up (SIP CANCEL): no event follows. Called when the engine ends an unanswered call. */
  cancel(): void;
}

/** Audio a bridge or room recorded. */
export interface RecordedAudio {
  /** 8 kHz 16-bit mono PCM WAV file. */
  wav: Uint8Array;
  /** Seconds, decimal (ms precision). */
  duration: number;
}

/** Two lines connected to each other (a Dial, two matched queue calls). */
export interface LineBridge {
  /**
   * Takes the lines apart (each keeps its call). With `record`, `done` gets the recording of
   * the bridge's two sides mixed; without, it gets undefined. `done` may be called synchronously.
   */
  disconnect(done: (recording: RecordedAudio | undefined) => void): void;
}

/** A conference room's audio: every member hears the others mixed. */
export interface ConferenceMixer {
  /** Adds a line to the mix; a `muted` member is heard by no one. */
  join(line: CallLine, options: { muted: boolean }): void;
  /** Takes a line out of the mix (it goes back to its own call's media). */
  leave(line: CallLine): void;
  mute(line: CallLine, muted: boolean): void;
  /** Plays to every member (entry and exit beeps, announcements); `done` as in `CallLine.play`. */
  play(source: MediaSource, done: (outcome: PlayOutcome) => void): MediaHandle;
  /** The room ended: every member has left. */
  close(): void;
}

/** Places calls and joins lines; one per engine (`createEngine({ telephony })`). */
export interface Telephony {
  /**
   * Places a call. The engine sets the call `ringing` on `ringing`, `in-progress` on
   * `answered`, and ends it with the status of `failed`; it cancels the attempt when it ends the
   * call first (its ring timeout, a Dial that another leg won, a hang-up).
   */
  dial(request: DialRequest, events: DialEvents): DialAttempt;
  /** Connects two answered lines of this engine's calls, each hearing the other. */
  connect(a: CallLine, b: CallLine, options: { record: boolean }): LineBridge;
  /** The audio of a conference room, made when the room starts (`sid` is the conference sid). */
  room(sid: string, name: string): ConferenceMixer;
}
