import { FRAME_SAMPLES } from './g711.js';

/** Mean absolute sample value under which a frame counts as silence (about -46 dBFS). */
export const SILENCE_LEVEL = 160;

/**
 * Collects the far end's decoded frames, one per tick (silence for gaps), and says when to
 * stop: at `maxMs`, or after `silenceMs` of frames under the silence level.
 */
export class Recorder {
  private readonly chunks: Int16Array[] = [];
  private frames = 0;
  private silentFrames = 0;

  constructor(
    readonly record: number,
    private readonly maxMs: number,
    private readonly silenceMs: number,
  ) {}

  /** Adds one frame (null: nothing heard); returns why recording ends now, if it does. */
  add(frame: Int16Array | null): 'max-length' | 'silence' | undefined {
    const samples = frame ?? new Int16Array(FRAME_SAMPLES);
    this.chunks.push(samples);
    this.frames++;
    let sum = 0;
    if (frame) for (let i = 0; i < frame.length; i++) sum += Math.abs(frame[i]);
    if (sum / FRAME_SAMPLES < SILENCE_LEVEL) this.silentFrames++;
    else this.silentFrames = 0;
    if (this.frames * 20 >= this.maxMs) return 'max-length';
    if (this.silenceMs > 0 && this.silentFrames * 20 >= this.silenceMs) return 'silence';
    return undefined;
  }

  get silentMs(): number {
    return this.silentFrames * 20;
  }

  /** Every sample recorded so far, in one array. */
  take(): Int16Array {
    const out = new Int16Array(this.frames * FRAME_SAMPLES);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}
