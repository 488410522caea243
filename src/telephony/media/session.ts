import { randomInt } from 'node:crypto';
import type dgram from 'node:dgram';
import { BridgeRecorder } from './bridge-recorder.js';
import { DtmfReceiver } from './dtmf.js';
import { DtmfSender } from './dtmf-sender.js';
import { decode, encode, FRAME_SAMPLES, SILENCE_BYTE } from './g711.js';
import { decodeInto } from './g711-tables.js';
import type { Histogram } from './histogram.js';
import { holdMusicFrame } from './hold-music.js';
import { JitterBuffer } from './jitter.js';
import { type PacketSource, RtpLatch } from './latch.js';
import { Packetizer } from './packetizer.js';
import { Player } from './player.js';
import type { Codec, CodecSettings, MediaEvent, MediaPath, OpenCommand } from './protocol.js';
import { Recorder } from './recorder.js';
import { readRtp, writeRtp } from './rtp.js';

/** Encoded audio by codec and key, most recently used last: a prompt many calls hear is encoded once. */
const ENCODED = new Map<string, Uint8Array>();
const ENCODED_MAX = 256;

function encoded(codec: Codec, pcm: Int16Array, key: string | undefined): Uint8Array {
  if (key === undefined) return encode(codec, pcm);
  const k = `${codec}|${key}`;
  let bytes = ENCODED.get(k);
  if (bytes && bytes.length === pcm.length) {
    ENCODED.delete(k);
  } else {
    bytes = encode(codec, pcm);
  }
  ENCODED.set(k, bytes);
  if (ENCODED.size > ENCODED_MAX) ENCODED.delete(ENCODED.keys().next().value as string);
  return bytes;
}

/** Relayed audio a bridged session keeps at most: 60 ms, so a faster sender adds no delay. */
const RELAY_BYTES = FRAME_SAMPLES * 3;

/** The jitter buffer of a recording: prime, most held and growth on each underrun, in samples. */
const RECORD_JITTER = [480, 2560, 320] as const;

/**
 * A session's place in a conference room (`room.ts`): the room reads what the session
 * receives from `input` and leaves this tick's mix, encoded, in `output`.
 */
export interface ConferenceSeat {
  readonly input: JitterBuffer;
  readonly output: Uint8Array;
  /** `output` holds this tick's mix (the room sets it, the session's tick sends it once). */
  ready: boolean;
  /** Takes the session out of its room (the session closes). */
  leave(): void;
}

/** Counters shared by every session of the worker. */
export interface SessionTotals {
  sent: number;
  received: number;
  lost: number;
  /** Packets dropped: from another source than the one latched onto, or not RTP of this call. */
  rejected: number;
  interArrival: Histogram;
}

/**
 * One call's media in the worker: its RTP socket, the one play and one recording it may have,
 * its digits. The pacing loop calls `tick` every 20 ms; nothing here has a timer of its own.
 */
export class MediaSession {
  readonly id: number;
  private codec: Codec;
  private payloadType: number;
  private dtmfPayloadType: number | undefined;
  private path: MediaPath;
  private readonly ssrc = randomInt(0, 0xffffffff);
  private sequence = randomInt(0, 0xffff);
  private timestamp = randomInt(0, 0xffffffff);
  private marker = true;
  private silence: Uint8Array;
  private readonly frame = new Uint8Array(FRAME_SAMPLES);
  private player: Player | undefined;
  private recorder: Recorder | undefined;
  private jitter: JitterBuffer | undefined;
  private readonly dtmf = new DtmfReceiver();
  /** The session bridged to this one: what either receives, the other sends. */
  private linked: MediaSession | undefined;
  /** Audio the linked session received, in this session's codec, waiting for our ticks (60 ms). */
  private readonly relay = new Uint8Array(RELAY_BYTES);
  private relayed = 0;
  private lastArrival = 0;
  private lastSequence: number | undefined;
  /** Set while the session is in a conference room: it sends the room's mix, not its play or bridge. */
  seat: ConferenceSeat | undefined;
  /** Keys being sent, and the RTP timestamp of the telephone-event under way. */
  private sender: DtmfSender | undefined;
  /** Frames of hold music played, so it goes on where it was. */
  private holdFrames = 0;
  private eventTimestamp = 0;
  /** The recording of this session's bridge: side 0 (the owner) ticks it and hands it back. */
  private bridgeRecording: { recorder: BridgeRecorder; side: 0 | 1 } | undefined;
  /** Which source the far end's RTP is taken from, and where ours goes. */
  private readonly latch: RtpLatch;
  /** Ticks since the last packet taken from the far end, and after how many it has timed out. */
  private quietTicks = 0;
  private timeoutTicks = 0;
  private timedOut = false;
  /** Audio frames into packets of the far end's ptime. */
  private readonly packets = new Packetizer();
  /** Called back after each send: says the first failure. */
  private readonly sent: (err: Error | null) => void;

  constructor(
    command: OpenCommand,
    readonly socket: dgram.Socket,
    private readonly emit: (event: MediaEvent) => void,
    private readonly totals: SessionTotals,
  ) {
    this.id = command.id;
    this.codec = command.codec;
    this.payloadType = command.payloadType;
    this.dtmfPayloadType = command.dtmfPayloadType;
    this.packets.setPtime(command.ptime);
    this.path = { remote: command.remote, send: command.send, receive: command.receive };
    this.setTimeout(command.rtpTimeoutMs);
    this.latch = new RtpLatch(command.remote);
    this.silence = new Uint8Array(FRAME_SAMPLES).fill(SILENCE_BYTE[this.codec]);
    // A send the system refuses (an IPv6 address on an IPv4 socket, no route) is told once;
    // one callback for every send of the session, so that sending allocates nothing more.
    let told = false;
    this.sent = (err) => {
      if (!err || told) return;
      told = true;
      this.emit({ type: 'send-failed', id: this.id, reason: err.message });
    };
    socket.on('message', (packet, from) => {
      try {
        this.receive(packet, from);
      } catch {
        // A malformed packet is dropped, not fatal.
      }
    });
  }

  update(path: MediaPath, codec?: CodecSettings): void {
    if (!this.path.send && path.send) this.marker = true;
    this.path = { remote: path.remote, send: path.send, receive: path.receive };
    this.setTimeout(path.rtpTimeoutMs);
    // The far end moved its media (a re-INVITE to another address): it proves the new one anew.
    this.latch.follow(path.remote);
    if (codec) {
      this.codec = codec.codec;
      this.payloadType = codec.payloadType;
      this.dtmfPayloadType = codec.dtmfPayloadType;
      this.packets.setPtime(codec.ptime);
      this.silence = new Uint8Array(FRAME_SAMPLES).fill(SILENCE_BYTE[this.codec]);
    }
  }

  play(play: number, pcm: Int16Array, loop: number, key?: string): void {
    if (this.player) this.emit({ type: 'played', id: this.id, play: this.player.play, stopped: true });
    this.player = new Player(play, encoded(this.codec, pcm, key), loop, SILENCE_BYTE[this.codec]);
  }

  stop(play: number): void {
    if (this.player?.play !== play) return;
    this.player = undefined;
    this.emit({ type: 'played', id: this.id, play, stopped: true });
  }

  record(record: number, maxMs: number, silenceMs: number): void {
    if (this.recorder) this.finishRecording('stopped');
    // A recording may lag: 60 ms to start, growing by 40 ms each time the line runs dry, up to
    // 300 ms, rather than the 40-60 ms of a relay (RECORD_JITTER).
    this.jitter = new JitterBuffer(...RECORD_JITTER);
    this.recorder = new Recorder(record, maxMs, silenceMs, this.codec, this.jitter);
  }

  stopRecord(record: number): void {
    if (this.recorder?.record === record) this.finishRecording('stopped');
    if (this.bridgeRecording?.side === 0 && this.bridgeRecording.recorder.record === record)
      this.finishBridgeRecording('stopped');
  }

  /**
   * Records the bridge to the linked session, both sides mixed, until `maxMs`, `stop-record`
   * or the bridge is taken apart; `recorded` comes from this session.
   */
  recordBridge(record: number, maxMs: number): void {
    const peer = this.linked;
    if (!peer) {
      this.emit({
        type: 'recorded',
        id: this.id,
        record,
        pcm: new Int16Array(0),
        reason: 'stopped',
        silentMs: 0,
      });
      return;
    }
    const recorder = new BridgeRecorder(record, maxMs);
    this.bridgeRecording = { recorder, side: 0 };
    peer.bridgeRecording = { recorder, side: 1 };
  }

  /**
   * Sends keys (`w`: half a second's pause) as RFC 4733 telephone-events of the negotiated
   * payload type, or as in-band tones when the far end takes none; after keys still going.
   */
  sendDigits(digits: string): void {
    if (this.sender) this.sender.add(digits);
    else this.sender = new DtmfSender(digits, this.dtmfPayloadType === undefined);
  }

  /**
   * Bridges this session to `peer` (undefined: takes it apart). Relayed audio goes out in this
   * session's own packets (its SSRC, sequence and timestamp), so the far end hears one stream
   * across prompts and the bridge.
   */
  link(peer: MediaSession | undefined): void {
    if (this.bridgeRecording) {
      if (this.bridgeRecording.side === 0) this.finishBridgeRecording('stopped');
      else if (peer !== this.linked) this.bridgeRecording = undefined;
    }
    this.linked = peer;
    this.relayed = 0;
  }

  get peer(): MediaSession | undefined {
    return this.linked;
  }

  /**
   * Audio the linked session received, in `codec`: kept for this session's next ticks (at most
   * 60 ms, the oldest dropped, so a faster sender cannot build up delay), unless this session
   * is held.
   */
  relayIn(payload: Uint8Array, codec: Codec): void {
    // A line we hold (we take none of its audio) hears no one either: it is out of the bridge.
    if (!this.path.receive) return;
    let bytes = codec === this.codec ? payload : encode(this.codec, decode(codec, payload));
    if (bytes.length > RELAY_BYTES) bytes = bytes.subarray(bytes.length - RELAY_BYTES);
    const drop = Math.max(0, this.relayed + bytes.length - RELAY_BYTES);
    if (drop > 0) {
      this.relay.copyWithin(0, drop, this.relayed);
      this.relayed -= drop;
    }
    this.relay.set(bytes, this.relayed);
    this.relayed += bytes.length;
  }

  get mediaCodec(): Codec {
    return this.codec;
  }

  /** The next frame of the play into `this.frame`; false when there is none (a play that ends says so). */
  private nextPlayed(): boolean {
    if (!this.player) return false;
    if (this.player.next(this.frame)) return true;
    const done = this.player.play;
    this.player = undefined;
    this.emit({ type: 'played', id: this.id, play: done, stopped: false });
    return false;
  }

  /** In a room: the next frame of this call's own play (wait music), decoded into `pcm`; false when none. */
  playedFrame(pcm: Int16Array): boolean {
    if (!this.nextPlayed()) return false;
    decodeInto(this.codec, this.frame, pcm);
    return true;
  }

  /** One 20 ms step: send a frame, take one into the recording. */
  tick(): void {
    let frame = this.silence;
    if (this.seat) {
      if (this.seat.ready) frame = this.seat.output;
      this.seat.ready = false;
    } else if (this.player) {
      if (this.nextPlayed()) frame = this.frame;
    } else if (this.relayed >= FRAME_SAMPLES) {
      this.frame.set(this.relay.subarray(0, FRAME_SAMPLES));
      this.relay.copyWithin(0, FRAME_SAMPLES, this.relayed);
      this.relayed -= FRAME_SAMPLES;
      frame = this.frame;
    } else if (this.linked && (!this.path.receive || !this.linked.path.receive)) {
      // A bridge with a held side: each side hears music instead of the silence of the other.
      frame = holdMusicFrame(this.codec, this.holdFrames++);
    }
    const dtmf = this.sender?.next();
    if (!dtmf) this.sender = undefined;
    else if (dtmf.kind === 'tone') frame = encode(this.codec, dtmf.pcm);
    const event = dtmf?.kind === 'event' && this.dtmfPayloadType !== undefined ? dtmf : undefined;
    // Audio goes out in packets of the far end's ptime: this tick's frame is held until a
    // packet's worth is (a key's events go out at once, and start the audio afresh after).
    const audio = this.path.send && !event ? this.packets.add(frame, this.timestamp) : undefined;
    if (!this.path.send || event) this.packets.reset();
    const remote = event || audio ? this.latch.destination(this.path.remote) : undefined;
    if (remote && event) {
      // One event keeps the timestamp of its start (RFC 4733); audio goes on at ours after.
      if (event.first) this.eventTimestamp = this.timestamp;
      const packet = writeRtp(
        {
          payloadType: this.dtmfPayloadType as number,
          marker: event.first,
          sequence: this.sequence,
          timestamp: this.eventTimestamp,
          ssrc: this.ssrc,
        },
        event.payload,
      );
      this.sequence = (this.sequence + 1) & 0xffff;
      this.socket.send(packet, remote.port, remote.address, this.sent);
      this.totals.sent++;
    } else if (remote && audio) {
      const packet = writeRtp(
        {
          payloadType: this.payloadType,
          marker: this.marker,
          sequence: this.sequence,
          timestamp: audio.timestamp,
          ssrc: this.ssrc,
        },
        audio.payload,
      );
      this.marker = false;
      this.sequence = (this.sequence + 1) & 0xffff;
      this.socket.send(packet, remote.port, remote.address, this.sent);
      this.totals.sent++;
    }
    this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
    if (this.recorder) {
      const reason = this.recorder.tick();
      if (reason) this.finishRecording(reason);
    }
    if (this.bridgeRecording?.side === 0 && this.bridgeRecording.recorder.tick())
      this.finishBridgeRecording('max-length');
    this.quietTicks++;
    if (this.timeoutTicks > 0 && !this.timedOut && this.quietTicks >= this.timeoutTicks) {
      this.timedOut = true;
      this.emit({ type: 'rtp-timeout', id: this.id, seconds: (this.quietTicks * 20) / 1000 });
    }
  }

  /** The far end's latched source, if it has sent valid RTP yet. */
  get latched(): PacketSource | undefined {
    return this.latch.latched;
  }

  /** Ticks without RTP before `rtp-timeout` (0: never); counting starts again. */
  private setTimeout(ms: number | undefined): void {
    this.timeoutTicks = ms && ms > 0 ? Math.ceil(ms / 20) : 0;
    this.quietTicks = 0;
  }

  private finishBridgeRecording(reason: 'max-length' | 'stopped'): void {
    const recorder = this.bridgeRecording?.recorder;
    if (!recorder || this.bridgeRecording?.side !== 0) return;
    this.bridgeRecording = undefined;
    if (this.linked?.bridgeRecording?.recorder === recorder) this.linked.bridgeRecording = undefined;
    this.emit({
      type: 'recorded',
      id: this.id,
      record: recorder.record,
      pcm: recorder.take(),
      reason,
      silentMs: 0,
    });
  }

  private finishRecording(reason: 'max-length' | 'silence' | 'stopped'): void {
    const recorder = this.recorder;
    if (!recorder) return;
    this.recorder = undefined;
    this.jitter = undefined;
    this.emit({
      type: 'recorded',
      id: this.id,
      record: recorder.record,
      pcm: recorder.take(),
      reason,
      silentMs: recorder.silentMs,
    });
  }

  private receive(packet: Buffer, from: PacketSource): void {
    const rtp = readRtp(packet);
    const audio =
      rtp !== undefined && (rtp.payloadType === this.payloadType || rtp.payloadType === this.dtmfPayloadType);
    if (!rtp || !this.latch.takes(from, rtp.payloadType, audio)) {
      this.totals.rejected++;
      return;
    }
    this.quietTicks = 0;
    const now = performance.now();
    this.totals.received++;
    if (this.lastArrival > 0) this.totals.interArrival.add(now - this.lastArrival);
    this.lastArrival = now;
    if (this.lastSequence !== undefined) {
      const gap = (rtp.sequence - this.lastSequence + 0x10000) & 0xffff;
      if (gap > 1 && gap < 0x8000) this.totals.lost += gap - 1;
    }
    if (this.lastSequence === undefined || ((rtp.sequence - this.lastSequence + 0x10000) & 0xffff) < 0x8000) {
      this.lastSequence = rtp.sequence;
    }
    if (!this.path.receive) return;
    if (rtp.payloadType === this.dtmfPayloadType) {
      const key = this.dtmf.receive(rtp.ssrc, rtp.timestamp, rtp.payload, now);
      if (key) this.emit({ type: 'digit', id: this.id, key });
      return;
    }
    if (rtp.payloadType === this.payloadType && rtp.payload.length > 0) {
      // (Comfort noise counts as traffic, but is no audio to record or relay.)
      this.jitter?.push(rtp.sequence, rtp.payload);
      this.seat?.input.push(rtp.sequence, rtp.payload);
      this.linked?.relayIn(rtp.payload, this.codec);
      this.bridgeRecording?.recorder.push(this.bridgeRecording.side, rtp.sequence, rtp.payload, this.codec);
    }
  }

  close(): void {
    this.finishBridgeRecording('stopped');
    const peer = this.linked;
    this.linked = undefined;
    if (peer?.peer === this) peer.link(undefined);
    this.player = undefined;
    this.seat?.leave();
    if (this.recorder) this.finishRecording('stopped');
    this.socket.close();
  }
}
