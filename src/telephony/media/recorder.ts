import { decode } from './g711.js';
import type { JitterBuffer } from './jitter.js';
import type { Codec } from './protocol.js';

/** Mean absolute sample value under which audio counts as silence (about -46 dBFS). */
export const SILENCE_LEVEL = 160;

/**
 * Records the far end in wall-clock time: every tick owes 20 ms (160 samples), paid with
 * packets from the jitter buffer (whatever their length) or with silence when it has none. A
 * single lost packet is concealed with the one before at half its level (packet loss
 * concealment at its simplest); a longer gap is silence. Says when to stop: at `maxMs`, or
 * after `silenceMs` under the silence level.
 */
export class Recorder {
  private readonly chunks: Int16Array[] = [];
  private samples = 0;
  private silentSamples = 0;
  private owed = 0;
  private lastSize = 160;
  /** The last packet's audio, while the packet before this pull was no gap. */
  private last: Int16Array | undefined;

  constructor(
    readonly record: number,
    private readonly maxMs: number,
    private readonly silenceMs: number,
    private readonly codec: Codec,
    private readonly jitter: JitterBuffer,
  ) {}

  /** One 20 ms step; returns why recording ends now, if it does. */
  tick(): 'max-length' | 'silence' | undefined {
    this.owed += 160;
    while (this.owed > 0) {
      const packet = this.jitter.pull();
      if (packet === undefined) {
        this.last = undefined;
        this.add(new Int16Array(this.owed));
        break;
      }
      if (packet === null) {
        const before = this.last;
        this.last = undefined;
        this.add(before ? before.map((s) => s >> 1) : new Int16Array(this.lastSize));
      } else {
        this.lastSize = packet.length;
        const pcm = decode(this.codec, packet);
        this.last = pcm;
        this.add(pcm);
      }
    }
    if (this.samples >= this.maxMs * 8) return 'max-length';
    if (this.silenceMs > 0 && this.silentSamples >= this.silenceMs * 8) return 'silence';
    return undefined;
  }

  private add(pcm: Int16Array): void {
    this.chunks.push(pcm);
    this.samples += pcm.length;
    this.owed -= pcm.length;
    let sum = 0;
    for (let i = 0; i < pcm.length; i++) sum += Math.abs(pcm[i]);
    if (pcm.length === 0) return;
    if (sum / pcm.length < SILENCE_LEVEL) this.silentSamples += pcm.length;
    else this.silentSamples = 0;
  }

  get silentMs(): number {
    return Math.round(this.silentSamples / 8);
  }

  /** Every sample recorded, at most `maxMs`' worth, in one array. */
  take(): Int16Array {
    const out = new Int16Array(Math.min(this.samples, this.maxMs * 8));
    let offset = 0;
    for (const chunk of this.chunks) {
      if (offset >= out.length) break;
      const part = chunk.subarray(0, out.length - offset);
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}
