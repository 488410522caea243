import type { MediaChannel, Recording } from './media/host.js';
import type { Direction } from './sip/sdp.js';

/** How a SIP call ended on the far end's side. */
export type FarEndEnd = 'canceled' | 'hangup';

/**
 * A SIP call with its media, inbound or outgoing, as the engine's call line drives it: answer
 * (a no-op for an outgoing call, answered by its callee), play, record, direction, hang up.
 */
export interface MediaCall {
  readonly answered: boolean;
  readonly ended: boolean;
  /** A key pressed (RFC 4733 or SIP INFO). */
  onDigit: ((key: string) => void) | undefined;
  /** The far end canceled or hung up. */
  onEnd: ((how: FarEndEnd) => void) | undefined;
  /** The call is over, whoever ended it. */
  onFinished: (() => void) | undefined;
  /** Answers (inbound: 200 OK with SDP once the media is open). */
  answer(): Promise<void>;
  /** Plays PCM `loop` times; true when stopped early. */
  play(pcm: Int16Array, loop: number, signal?: AbortSignal, key?: string): Promise<boolean>;
  /** Records the far end (see `MediaChannel.record`); undefined without media. */
  record(maxMs: number, silenceMs: number): Recording | undefined;
  /** Our side's direction (Hold: `sendonly`). */
  setLocalDirection(direction: Direction): void;
  /** Mutes our side: the far end hears nothing. */
  setMuted(muted: boolean): void;
  /** Refuses a call not answered yet (404, 486, 603...). */
  reject(status: number): void;
  /** Our hang-up. */
  hangup(): void;
  /** The call's media in the worker while it is open (bridges link two of them). */
  mediaChannel(): MediaChannel | undefined;
}
