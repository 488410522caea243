import { FRAME_SAMPLES } from './g711.js';

/**
 * Packs the pacing loop's 20 ms frames into packets of the far end's ptime (RFC 4566 `a=ptime`):
 * at 20 ms each frame is a packet; at 30 or 40 ms frames are held until a packet's worth is (30
 * ms packets go out twice in three ticks), each packet's timestamp its first sample's.
 */
export class Packetizer {
  private samples = FRAME_SAMPLES;
  private readonly held = new Uint8Array(FRAME_SAMPLES * 3);
  private length = 0;
  private timestamp = 0;

  /** A new packet time (20, 30 or 40 ms; anything else is 20): what is held is dropped. */
  setPtime(ptime: number | undefined): void {
    this.samples = ptime === 30 || ptime === 40 ? ptime * 8 : FRAME_SAMPLES;
    this.length = 0;
  }

  /** Drops what is held (the session stops sending, or a key's events go out). */
  reset(): void {
    this.length = 0;
  }

  /** The frame starting at RTP `timestamp` as a packet to send now, or undefined while held. */
  add(frame: Uint8Array, timestamp: number): { payload: Uint8Array; timestamp: number } | undefined {
    if (this.samples === FRAME_SAMPLES) return { payload: frame, timestamp };
    if (this.length === 0) this.timestamp = timestamp;
    this.held.set(frame, this.length);
    this.length += frame.length;
    if (this.length < this.samples) return undefined;
    const packet = { payload: this.held.slice(0, this.samples), timestamp: this.timestamp };
    this.held.copyWithin(0, this.samples, this.length);
    this.length -= this.samples;
    this.timestamp = (this.timestamp + this.samples) >>> 0;
    return packet;
  }
}
