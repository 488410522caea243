import { decodeInto, encodeInto } from './g711-tables.js';
import { JitterBuffer } from './jitter.js';
import { MIX_SAMPLES, type MixSlot, mixTick } from './mixer.js';
import type { MediaEvent } from './protocol.js';
import type { ConferenceSeat, MediaSession } from './session.js';

/** Decoded audio a member may hold beyond one frame (a 60 ms packet, and a frame left over). */
const PENDING_SAMPLES = MIX_SAMPLES * 5;

/** A member: its session, its seat there, and its slot in the tick's mix. */
class Member implements MixSlot {
  readonly input = new Int16Array(MIX_SAMPLES);
  readonly output = new Int16Array(MIX_SAMPLES);
  readonly encoded = new Uint8Array(MIX_SAMPLES);
  readonly jitter = new JitterBuffer();
  /** Decoded samples taken from the jitter buffer, not mixed yet (packets of any length). */
  private readonly pending = new Int16Array(PENDING_SAMPLES);
  private pendingSamples = 0;
  private lastPacket = MIX_SAMPLES;
  private readonly played = new Int16Array(MIX_SAMPLES);
  heard = false;
  own: Int16Array | undefined;
  /** The session's side: what it receives goes into `jitter`, it sends `encoded`. */
  readonly seat: ConferenceSeat;

  constructor(
    readonly session: MediaSession,
    public muted: boolean,
    leave: () => void,
  ) {
    this.seat = { input: this.jitter, output: this.encoded, ready: false, leave };
  }

  /** Takes this tick's input from the jitter buffer (silence when it has none) and the own play. */
  take(): void {
    const codec = this.session.mediaCodec;
    while (this.pendingSamples < MIX_SAMPLES) {
      const packet = this.jitter.pull();
      if (packet === undefined) break;
      const room = PENDING_SAMPLES - this.pendingSamples;
      const size = Math.min(packet === null ? this.lastPacket : packet.length, room);
      if (packet === null) this.pending.fill(0, this.pendingSamples, this.pendingSamples + size);
      else {
        this.lastPacket = packet.length;
        decodeInto(codec, packet.subarray(0, size), this.pending, this.pendingSamples);
      }
      this.pendingSamples += size;
    }
    const got = Math.min(this.pendingSamples, MIX_SAMPLES);
    this.heard = got > 0 && !this.muted;
    if (this.heard) {
      this.input.set(this.pending.subarray(0, got));
      this.input.fill(0, got);
    }
    this.pending.copyWithin(0, got, this.pendingSamples);
    this.pendingSamples -= got;
    this.own = this.session.playedFrame(this.played) ? this.played : undefined;
  }

  /** The mix, in the member's codec, for its session's tick. */
  give(): void {
    encodeInto(this.session.mediaCodec, this.output, this.encoded);
    this.seat.ready = true;
  }
}

/** A play to the whole room: PCM `loop` times (0: until stopped). */
class RoomPlay {
  private offset = 0;
  private round = 0;

  constructor(
    readonly play: number,
    private readonly pcm: Int16Array,
    private readonly loop: number,
  ) {}

  /** Adds the next frame into `frame`; false once the play is over. */
  addTo(frame: Int32Array): boolean {
    if (this.pcm.length === 0 || (this.loop !== 0 && this.round >= this.loop)) return false;
    const end = Math.min(this.offset + MIX_SAMPLES, this.pcm.length);
    for (let i = this.offset; i < end; i++) frame[i - this.offset] += this.pcm[i];
    this.offset = end;
    if (this.offset >= this.pcm.length) {
      this.offset = 0;
      this.round++;
    }
    return true;
  }
}

/**
 * A conference room in the media worker. Each tick of the pacing loop (before the sessions
 * send), every member's received audio is decoded once from its own jitter buffer, the room
 * sums them (`mixTick`), and each member's mix is encoded once in its codec; its session then
 * sends it in its own RTP stream. Work is O(members) per tick.
 */
export class ConferenceRoom {
  private readonly members = new Map<number, Member>();
  private slots: Member[] = [];
  private readonly plays = new Map<number, RoomPlay>();
  private readonly shared = new Int32Array(MIX_SAMPLES);
  private readonly sum = new Int32Array(MIX_SAMPLES);

  constructor(
    readonly id: number,
    private readonly emit: (event: MediaEvent) => void,
  ) {}

  get size(): number {
    return this.members.size;
  }

  join(session: MediaSession, muted: boolean): void {
    const existing = this.members.get(session.id);
    if (existing) {
      existing.muted = muted;
      return;
    }
    session.seat?.leave();
    const member = new Member(session, muted, () => this.leave(session.id));
    session.seat = member.seat;
    this.members.set(session.id, member);
    this.slots = [...this.members.values()];
  }

  leave(id: number): void {
    const member = this.members.get(id);
    if (!member) return;
    this.members.delete(id);
    this.slots = [...this.members.values()];
    if (member.session.seat === member.seat) member.session.seat = undefined;
  }

  mute(id: number, muted: boolean): void {
    const member = this.members.get(id);
    if (member) member.muted = muted;
  }

  play(play: number, pcm: Int16Array, loop: number): void {
    this.plays.set(play, new RoomPlay(play, pcm, loop));
  }

  stop(play: number): void {
    if (this.plays.delete(play)) this.emit({ type: 'room-played', room: this.id, play, stopped: true });
  }

  /** Members go back to their own media; plays end stopped. */
  close(): void {
    for (const id of [...this.members.keys()]) this.leave(id);
    for (const play of [...this.plays.keys()]) this.stop(play);
  }

  /** One 20 ms step: take every member's input, mix, give each its mix. */
  tick(): void {
    let shared: Int32Array | undefined;
    if (this.plays.size > 0) {
      shared = this.shared;
      shared.fill(0);
      for (const play of this.plays.values()) {
        if (play.addTo(shared)) continue;
        this.plays.delete(play.play);
        this.emit({ type: 'room-played', room: this.id, play: play.play, stopped: false });
      }
    }
    const slots = this.slots;
    for (const member of slots) member.take();
    mixTick(slots, shared, this.sum);
    for (const member of slots) member.give();
  }
}
