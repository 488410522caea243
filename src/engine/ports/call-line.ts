import type { CallStatus } from '../records.js';
import type { PartyInput } from '../types.js';

/**
 * The `CallLine` port: how a call talks to its far end. The engine never touches SIP or RTP;
 * it asks the call's line to answer, play, record, hold and hang up, and the line reports the
 * far end's keys and hang-up back. The engine's default line is a simulated party (timers on
 * the engine clock); `src/telephony/` and embedders supply lines over real media.
 *
 * Everything here is called on the engine's thread and must return promptly: long work
 * (playing, recording) reports its end through the `done` callback it is given. A line may call
 * `done` synchronously; a line over real media calls it later.
 */

/** SDP media direction of the call's stream, from the engine's side (Hold: `sendonly`). */
export type MediaDirection = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

/** Something a line plays to its far end. */
export type MediaSource =
  /** Text to speak (Say): a TTS port turns it into audio. `voice` and `language` as in RCML. */
  | { kind: 'speech'; text: string; voice: string; language: string }
  /**
   * Audio from a URL (Play). `seconds` is its length as the engine knows it (the WAV header, or
   * the configured default length). `bytes` is the fetched file (any WAV, MP3...) when the line
   * asked for audio bytes ({@link CallLine.needsAudioBytes}).
   */
  | { kind: 'audio'; url: string; seconds: number; bytes?: Uint8Array; contentType?: string }
  /** Silence (Pause): `seconds` long. */
  | { kind: 'silence'; seconds: number }
  /** A beep (Record's `playBeep`, conference entry and exit tones): `seconds` long. */
  | { kind: 'beep'; seconds: number }
  /** DTMF to send in the media (RFC 4733): `0-9`, `*`, `#`, and `w` for a half-second pause. */
  | { kind: 'digits'; digits: string };

/** How a play ended: played to the end, or it could not be played (TTS or decoding failed). */
export type PlayOutcome = 'done' | 'failed';

/** What a play that could not be played resolves with (a played one resolves with nothing). */
export type PlayFailed = Extract<PlayOutcome, 'failed'>;

/**
 * A media operation under way (a play, a recording). `stop` ends it at once; a stopped play
 * never calls its `done`, a stopped recording calls its `done` with the audio captured so far.
 */
export interface MediaHandle {
  stop(): void;
}

/** What Record asks of a line (RCML `Record` attributes, checked and with defaults applied). */
export interface RecordOptions {
  /** Longest recording, seconds. */
  maxLength: number;
  /** Seconds of silence (by audio energy) that end the recording. */
  timeout: number;
  /** Keys that end the recording (not recorded), `''` for none. */
  finishOnKey: string;
  /** Play a beep of `beepSeconds` before recording. */
  playBeep: boolean;
  beepSeconds: number;
}

/** Why a recording ended. */
export type RecordingEnd = 'key' | 'silence' | 'max-length' | 'stopped';

/** A finished recording. */
export interface LineRecording {
  /** 8 kHz 16-bit mono PCM WAV file of the recorded audio (after the beep). */
  wav: Uint8Array;
  /** Seconds recorded, decimal (ms precision). */
  duration: number;
  /** False when it was stopped before recording began (during the beep). */
  started: boolean;
  endedBy: RecordingEnd;
  /** The `finishOnKey` key that ended it (`endedBy: 'key'`). */
  key?: string;
}

/** Why the engine ends a line, beyond its status (a SIP line picks its response from it). */
export type LineEndReason =
  /** Reject `reason="rejected"` (status `busy` as on the platform; SIP 603 rather than 486). */
  | 'rejected'
  /** No application for the called number (SIP 404). */
  | 'unknown-number'
  /** The engine is closing. */
  | 'shutdown';

/** What a line reports to its call. The engine gives these to {@link CallLine.attach}. */
export interface CallLineEvents {
  /** The far end pressed keys (RFC 4733, SIP INFO) or, with a recogniser, said something. */
  input(input: PartyInput): void;
  /** The far end hung up (BYE, or CANCEL while ringing). */
  hangup(): void;
}

/**
 * One call's connection to its far end. A line is bound to one call for the call's life:
 * inbound lines are handed to `engine.acceptCall`, outbound ones come from
 * {@link Telephony.dial}'s `answered` event.
 */
export interface CallLine {
  /**
   * True when the line plays real audio: the engine then fetches each Play's file (through its
   * fetcher and egress policy) and hands the bytes over in the `audio` source. False or absent
   * (the simulated line): only the length counts and the engine fetches a URL once per engine.
   */
  readonly needsAudioBytes?: boolean;
  /** The engine binds the line to its call: from now on the line reports to `events`. Called once. */
  attach(events: CallLineEvents): void;
  /**
   * The call is answered: an inbound line answers its far end (SIP 200 OK with SDP); a line
   * from `Telephony.dial` is already answered by its far end and starts its media. Called once,
   * when the call goes `in-progress`.
   */
  answer(): void;
  /**
   * The call is over with `status` (`completed`: hang up, SIP BYE; `busy`: Reject before the
   * answer, SIP 486, or 603 with reason `rejected`; `failed`: 404 with `unknown-number`, else
   * 500; `canceled`/`no-answer`: cancel an unanswered outgoing line). Stops every media
   * operation (the engine stops a play or recording under way just before: a stopped recording
   * still calls its `done`); the line reports nothing afterwards. Called once, also after the
   * far end hung up.
   */
  end(status: CallStatus, reason?: LineEndReason): void;
  /** Changes the media direction: Hold offers `sendonly`, Resume `sendrecv` (a SIP re-INVITE). */
  setDirection(direction: MediaDirection): void;
  /** Mutes the engine's side: the far end hears silence, no re-offer. */
  mute(muted: boolean): void;
  /**
   * Plays `source` to the far end; `done` is called once when it has played to its end (or
   * failed). Only one play at a time: the engine stops a play before it starts another.
   */
  play(source: MediaSource, done: (outcome: PlayOutcome) => void): MediaHandle;
  /**
   * Records the far end after an optional beep, until a `finishOnKey` key, `maxLength`,
   * `timeout` seconds of silence, or `stop`; `done` is called once with the recording. Keys
   * pressed during the recording are also reported through `events.input`.
   */
  record(options: RecordOptions, done: (recording: LineRecording) => void): MediaHandle;
  /** Sends DTMF to the far end at once (Dial `sendDigits` to an answered callee). */
  sendDigits(digits: string): void;
  /**
   * Optional: the speech of a document just loaded, before it runs, so that a line can start
   * synthesising it ahead. Never called for the simulated line.
   */
  prepare?(sources: readonly MediaSource[]): void;
}
