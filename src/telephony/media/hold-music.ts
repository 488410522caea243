import { encode, FRAME_SAMPLES } from './g711.js';
import type { Codec } from './protocol.js';

/** The notes of the loop (Hz, C5 then E5), each half a second, then a second of quiet. */
const NOTES = [523.25, 659.25] as const;
const NOTE_SAMPLES = 4000;
const LOOP_SAMPLES = 16_000;
/** About -21 dBFS: heard, never loud. */
const AMPLITUDE = 3000;
/** Fade in and out of each note (5 ms), so it starts and stops without a click. */
const FADE = 40;

function loop(): Int16Array {
  const pcm = new Int16Array(LOOP_SAMPLES);
  NOTES.forEach((hz, n) => {
    for (let i = 0; i < NOTE_SAMPLES; i++) {
      const envelope = Math.min(1, i / FADE, (NOTE_SAMPLES - 1 - i) / FADE);
      pcm[n * NOTE_SAMPLES + i] = Math.round(AMPLITUDE * envelope * Math.sin((2 * Math.PI * hz * i) / 8000));
    }
  });
  return pcm;
}

const encoded = new Map<Codec, Uint8Array>();

/**
 * Frame `n` of the built-in hold music (a two-note chime every two seconds) in `codec`: what
 * a bridged party hears while it or its peer is held. Encoded once per codec.
 */
export function holdMusicFrame(codec: Codec, n: number): Uint8Array {
  let bytes = encoded.get(codec);
  if (!bytes) {
    bytes = encode(codec, loop());
    encoded.set(codec, bytes);
  }
  const start = (n * FRAME_SAMPLES) % LOOP_SAMPLES;
  return bytes.subarray(start, start + FRAME_SAMPLES);
}
