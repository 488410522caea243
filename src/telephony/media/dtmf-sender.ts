import { FRAME_SAMPLES } from './g711.js';

/** RFC 4733 event codes: the index of the key. */
const EVENTS = '0123456789*#ABCD';
/** The DTMF grid (Hz): row tone by key, then column tone. */
const ROWS = [697, 770, 852, 941] as const;
const COLUMNS = [1209, 1336, 1477, 1633] as const;
const GRID = ['123A', '456B', '789C', '*0#D'];

/** A key sounds 100 ms, then 100 ms of the call's own audio before the next; `w` waits 500 ms. */
const KEY_FRAMES = 5;
const GAP_FRAMES = 5;
const PAUSE_FRAMES = 25;
/** The end packet of an event goes three times (RFC 4733 section 2.5.1.4). */
const END_REPEATS = 3;
/** Each of the two in-band tones at about -9 dBFS, so their sum stays well clear of clipping. */
const TONE_AMPLITUDE = 11_000;

/** What one 20 ms tick sends while keys go out. */
export type DtmfFrame =
  /** An RFC 4733 packet: `first` starts the event (marker bit, a new timestamp). */
  | { kind: 'event'; payload: Uint8Array; first: boolean }
  /** 20 ms of the key's two tones (in-band, when the far end takes no telephone-event). */
  | { kind: 'tone'; pcm: Int16Array }
  /** The call's own audio (between keys, a `w` pause). */
  | { kind: 'gap' };

/** The row and column tones of a key. */
function tonesOf(key: string): [number, number] {
  const row = GRID.findIndex((r) => r.includes(key));
  return [ROWS[row], COLUMNS[GRID[row].indexOf(key)]];
}

/**
 * Sends keys one 20 ms tick at a time: as RFC 4733 telephone-events (each key 100 ms: packets
 * of growing duration, the end one three times), or as in-band tones when `inBand`. `w` is a
 * half-second pause; other characters are skipped.
 */
export class DtmfSender {
  private readonly frames: Array<{ key: string; frame: number } | { gap: true }> = [];
  private readonly pcm = new Int16Array(FRAME_SAMPLES);

  constructor(
    digits: string,
    private readonly inBand: boolean,
  ) {
    this.add(digits);
  }

  /** More keys, after those still to send. */
  add(digits: string): void {
    for (const raw of digits) {
      const key = raw.toUpperCase();
      if (key === 'W') {
        for (let i = 0; i < PAUSE_FRAMES; i++) this.frames.push({ gap: true });
      } else if (EVENTS.includes(key)) {
        const sounding = this.inBand ? KEY_FRAMES : KEY_FRAMES + END_REPEATS - 1;
        for (let frame = 0; frame < sounding; frame++) this.frames.push({ key, frame });
        for (let i = 0; i < GAP_FRAMES; i++) this.frames.push({ gap: true });
      }
    }
  }

  /** The next tick's frame, or undefined once every key is sent. */
  next(): DtmfFrame | undefined {
    const step = this.frames.shift();
    if (!step) return undefined;
    if ('gap' in step) return { kind: 'gap' };
    if (this.inBand) {
      const [low, high] = tonesOf(step.key);
      const offset = step.frame * FRAME_SAMPLES;
      for (let i = 0; i < FRAME_SAMPLES; i++) {
        const t = (offset + i) / 8000;
        this.pcm[i] = Math.round(
          TONE_AMPLITUDE * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)),
        );
      }
      return { kind: 'tone', pcm: this.pcm };
    }
    const end = step.frame >= KEY_FRAMES - 1;
    const duration = Math.min(step.frame + 1, KEY_FRAMES) * FRAME_SAMPLES;
    return {
      kind: 'event',
      // Event, E bit and volume (10: -10 dBm0), duration in timestamp units.
      payload: Uint8Array.of(EVENTS.indexOf(step.key), (end ? 0x80 : 0) | 10, duration >> 8, duration & 0xff),
      first: step.frame === 0,
    };
  }
}
