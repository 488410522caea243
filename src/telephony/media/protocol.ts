/**
 * Messages between the main thread and the media worker. Commands go down, events come up;
 * audio travels as 8 kHz 16-bit mono PCM (`Int16Array`), transferred, not copied, where it can.
 */

export type Codec = 'PCMU' | 'PCMA';

/** Where RTP goes and whether each way flows (hold follows the far end's direction). */
export interface MediaPath {
  /** Far end's RTP address; null sends nothing. */
  remote: { address: string; port: number } | null;
  /** We send audio. */
  send: boolean;
  /** We take in the far end's audio (recording, digits). */
  receive: boolean;
  /** Ms without RTP from the far end after which `rtp-timeout` is reported (0 or absent: never). */
  rtpTimeoutMs?: number;
}

/** The negotiated codec of a call's stream. */
export interface CodecSettings {
  codec: Codec;
  payloadType: number;
  dtmfPayloadType?: number;
  /** Ms of audio per packet sent: 20 (default), 30 or 40 (the far end's `a=ptime`). */
  ptime?: number;
}

export interface OpenCommand extends MediaPath, CodecSettings {
  type: 'open';
  id: number;
}

export type MediaCommand =
  | OpenCommand
  /** New path; with `codec` (an outgoing call's answer) the codec settings change too. */
  | ({ type: 'update'; id: number; codec?: CodecSettings } & MediaPath)
  /**
   * Plays PCM `loop` times (0: until stopped); `played` when done or stopped. With `key` (the
   * same audio for every call: a prompt, a file) the worker encodes it once per codec.
   */
  | { type: 'play'; id: number; play: number; pcm: Int16Array; loop: number; key?: string }
  | { type: 'stop'; id: number; play: number }
  /**
   * Records the far end: ends at `maxMs`, after `silenceMs` of silence (0: never), or when
   * stopped; `recorded` carries the audio.
   */
  | { type: 'record'; id: number; record: number; maxMs: number; silenceMs: number }
  | { type: 'stop-record'; id: number; record: number }
  /**
   * Bridges two calls' media (each sends what the other receives); `peer: null` takes `id`'s
   * bridge apart. With `record`, both sides are recorded mixed until the bridge is taken apart,
   * `maxMs` or `stop-record`; `recorded` comes from `id`.
   */
  | { type: 'link'; id: number; peer: number | null; record?: { record: number; maxMs: number } }
  /** Sends keys to the far end (RFC 4733, or in-band tones without telephone-event); `w` pauses 0.5 s. */
  | { type: 'digits'; id: number; digits: string }
  | { type: 'close'; id: number }
  | { type: 'stats' }
  | { type: 'shutdown' }
  | RoomCommand;

/**
 * Conference rooms (see `room.ts`): members are open calls (`id`); while in a room a call
 * sends the room's mix (others, room plays, its own play) instead of its play or bridge.
 */
export type RoomCommand =
  | { type: 'room-open'; room: number }
  /** Joining another room leaves the first; a `muted` member hears but is not heard. */
  | { type: 'room-join'; room: number; id: number; muted: boolean }
  | { type: 'room-leave'; room: number; id: number }
  | { type: 'room-mute'; room: number; id: number; muted: boolean }
  /** Plays PCM to every member `loop` times (0: until stopped); `room-played` when done or stopped. */
  | { type: 'room-play'; room: number; play: number; pcm: Int16Array; loop: number }
  | { type: 'room-stop'; room: number; play: number }
  /** Every member goes back to its own media; plays under way end stopped. */
  | { type: 'room-close'; room: number };

/** Figures of the pacing loop and the receivers, for the bench and metrics. */
export interface MediaStats {
  sessions: number;
  ticks: number;
  /** Tick lateness, ms. */
  latenessP99: number;
  latenessMax: number;
  /** Time one tick takes for every call (sending, recording), ms: the loop's own cost. */
  tickWorkP99: number;
  tickWorkMax: number;
  /** Gaps between received packets of one stream, ms. */
  interArrivalP999: number;
  packetsSent: number;
  packetsReceived: number;
  /** Sequence numbers missing in received streams. */
  packetsLost: number;
  /** Packets dropped: from another source than the call's latched one, or no RTP of the call. */
  packetsRejected: number;
}

export type MediaEvent =
  | { type: 'opened'; id: number; port: number }
  | { type: 'open-failed'; id: number; reason: string }
  | { type: 'played'; id: number; play: number; stopped: boolean }
  | {
      type: 'recorded';
      id: number;
      record: number;
      pcm: Int16Array;
      reason: 'max-length' | 'silence' | 'stopped';
      /** Ms of audio at the end that were silence (the timeout). */
      silentMs: number;
    }
  | { type: 'digit'; id: number; key: string }
  /** The system refused to send this call's RTP (the first time only): why. */
  | { type: 'send-failed'; id: number; reason: string }
  /** No RTP came from the far end for `seconds` (the path's `rtpTimeoutMs`). */
  | { type: 'rtp-timeout'; id: number; seconds: number }
  | { type: 'stats'; stats: MediaStats }
  | { type: 'room-played'; room: number; play: number; stopped: boolean };
