import { decode, FRAME_SAMPLES } from './g711.js';
import { JitterBuffer } from './jitter.js';
import type { Codec } from './protocol.js';

/** Every G.711 byte's 16-bit sample, by codec: decoding a mixed frame allocates nothing. */
const TABLES: Record<Codec, Int16Array> = {
  PCMU: decode(
    'PCMU',
    Uint8Array.from({ length: 256 }, (_, i) => i),
  ),
  PCMA: decode(
    'PCMA',
    Uint8Array.from({ length: 256 }, (_, i) => i),
  ),
};

/** Samples per stored chunk of the mix: one second, so a long bridge is no single huge copy. */
const CHUNK_SAMPLES = 8000;

/**
 * One side of a recorded bridge: the packets its line received, in order through a jitter
 * buffer, given out 20 ms at a time (a missing packet or an empty buffer gives silence).
 */
class Side {
  readonly jitter = new JitterBuffer();
  codec: Codec = 'PCMU';
  /** The packet being given out and how much of it is left (a packet need not be 20 ms). */
  private packet: Uint8Array = new Uint8Array(0);
  private offset = 0;
  /** Samples of silence owed for a missing packet. */
  private gap = 0;
  private lastSize = FRAME_SAMPLES;

  /** Adds this side's next 20 ms into `mix`, decoding through the codec's table. */
  addTo(mix: Int32Array): void {
    const table = TABLES[this.codec];
    let filled = 0;
    while (filled < FRAME_SAMPLES) {
      if (this.gap === 0 && this.offset >= this.packet.length) {
        const next = this.jitter.pull();
        if (next === undefined) return;
        if (next === null) this.gap = this.lastSize;
        else {
          this.lastSize = next.length;
          this.packet = next;
          this.offset = 0;
        }
        continue;
      }
      if (this.gap > 0) {
        const skip = Math.min(FRAME_SAMPLES - filled, this.gap);
        this.gap -= skip;
        filled += skip;
        continue;
      }
      const take = Math.min(FRAME_SAMPLES - filled, this.packet.length - this.offset);
      for (let i = 0; i < take; i++) mix[filled + i] += table[this.packet[this.offset + i]];
      this.offset += take;
      filled += take;
    }
  }
}

/**
 * Records both sides of a bridge mixed to mono in wall-clock time: every tick takes 20 ms of
 * each side's received audio (silence where a side sent none), sums them and saturates to
 * 16 bits. Ends at `maxMs`.
 */
export class BridgeRecorder {
  private readonly sides = [new Side(), new Side()] as const;
  private readonly mix = new Int32Array(FRAME_SAMPLES);
  private readonly chunks: Int16Array[] = [];
  private chunk = new Int16Array(CHUNK_SAMPLES);
  private inChunk = 0;
  private samples = 0;

  constructor(
    readonly record: number,
    private readonly maxMs: number,
  ) {}

  /** A packet of audio side `side` received (0: the line that asked for the recording). */
  push(side: 0 | 1, sequence: number, payload: Uint8Array, codec: Codec): void {
    const s = this.sides[side];
    s.codec = codec;
    s.jitter.push(sequence, payload);
  }

  /** One 20 ms step; true once `maxMs` is recorded. */
  tick(): boolean {
    if (this.samples >= this.maxMs * 8) return true;
    this.mix.fill(0);
    this.sides[0].addTo(this.mix);
    this.sides[1].addTo(this.mix);
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const v = this.mix[i];
      this.chunk[this.inChunk++] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
      if (this.inChunk === CHUNK_SAMPLES) {
        this.chunks.push(this.chunk);
        this.chunk = new Int16Array(CHUNK_SAMPLES);
        this.inChunk = 0;
      }
    }
    this.samples += FRAME_SAMPLES;
    return this.samples >= this.maxMs * 8;
  }

  /** The mix recorded so far, at most `maxMs`' worth, in one array. */
  take(): Int16Array {
    const out = new Int16Array(Math.min(this.samples, this.maxMs * 8));
    let offset = 0;
    for (const chunk of [...this.chunks, this.chunk.subarray(0, this.inChunk)]) {
      if (offset >= out.length) break;
      const part = chunk.subarray(0, out.length - offset);
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}
