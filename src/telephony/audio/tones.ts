import { CALL_RATE } from './decode.js';

/** `seconds` of silence at 8 kHz. */
export function silence(seconds: number): Int16Array {
  return new Int16Array(Math.max(0, Math.round(seconds * CALL_RATE)));
}

/** Record's beep: a 1 kHz tone of `seconds` at about -10 dBFS. */
export function beep(seconds: number): Int16Array {
  const pcm = silence(seconds);
  for (let i = 0; i < pcm.length; i++)
    pcm[i] = Math.round(10_000 * Math.sin((2 * Math.PI * 1000 * i) / CALL_RATE));
  return pcm;
}
