/**
 * Checks that bytes are a playable RIFF/WAVE file, reading every chunk header within bounds:
 * `RIFF` size, a `fmt ` chunk before a non-empty `data` chunk that fits in the file. Accepted
 * encodings are the telephone ones: linear PCM (format 1), A-law (6) and µ-law (7), also when
 * WAVE_FORMAT_EXTENSIBLE (0xFFFE) names them in its sub-format. Shared by every upload route and
 * by the engine.
 */

/** Encoding of a WAV file's samples. */
export type WavEncoding = 'pcm' | 'alaw' | 'mulaw';

export type WavCheck =
  | {
      ok: true;
      encoding: WavEncoding;
      sampleRate: number;
      channels: number;
      bitsPerSample: number;
      seconds: number;
    }
  | { ok: false; reason: string };

/** Options of {@link checkWav}. */
export interface WavCheckOptions {
  /**
   * Also hold the format to what a telephone prompt can be: 1-2 channels, 8000-48000 Hz, 8 or
   * 16 bits (8 for G.711), block align and byte rate consistent. Default true.
   */
  strict?: boolean;
}

const ENCODING: Readonly<Record<number, WavEncoding>> = { 1: 'pcm', 6: 'alaw', 7: 'mulaw' };
const tag = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

export function checkWav(bytes: Uint8Array, options: WavCheckOptions = {}): WavCheck {
  const strict = options.strict ?? true;
  const fail = (reason: string): WavCheck => ({ ok: false, reason });
  if (bytes.length < 44) return fail(`too short for a WAV file (${bytes.length} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (tag(bytes, 0) !== 'RIFF') return fail('missing RIFF header');
  if (tag(bytes, 8) !== 'WAVE') return fail('RIFF file is not WAVE');
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.length) return fail(`RIFF size ${riffEnd - 8} exceeds the file`);
  let fmt:
    | { encoding: WavEncoding; channels: number; sampleRate: number; bits: number; byteRate: number }
    | undefined;
  let at = 12;
  while (at + 8 <= riffEnd) {
    const id = tag(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (body + size > riffEnd) return fail(`chunk '${id}' at byte ${at} runs past the end of the file`);
    if (id === 'fmt ') {
      if (size < 16) return fail(`fmt chunk too short (${size} bytes)`);
      let format = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE names its real format in the first two bytes of the sub-format GUID.
      if (format === 0xfffe && size >= 40) format = view.getUint16(body + 24, true);
      const encoding = ENCODING[format];
      if (!encoding) return fail(`audio format ${format} is not linear PCM (1), A-law (6) or µ-law (7)`);
      const channels = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const byteRate = view.getUint32(body + 8, true);
      const blockAlign = view.getUint16(body + 12, true);
      const bits = view.getUint16(body + 14, true);
      if (channels < 1 || sampleRate < 1 || bits < 1 || byteRate < 1)
        return fail('zero channels, sample rate, sample size or byte rate');
      if (strict) {
        if (channels > 2) return fail(`${channels} channels (expected 1 or 2)`);
        if (sampleRate < 8000 || sampleRate > 48000)
          return fail(`sample rate ${sampleRate} Hz (expected 8000-48000)`);
        if (encoding === 'pcm' && bits !== 8 && bits !== 16)
          return fail(`${bits} bits per sample (expected 8 or 16)`);
        if (encoding !== 'pcm' && bits !== 8) return fail(`${bits} bits per sample (G.711 is 8)`);
        if (blockAlign !== (channels * bits) / 8 || byteRate !== sampleRate * blockAlign) {
          return fail('inconsistent block align or byte rate');
        }
      }
      fmt = { encoding, channels, sampleRate, bits, byteRate };
    } else if (id === 'data') {
      if (!fmt) return fail('data chunk before the fmt chunk');
      if (size === 0) return fail('empty data chunk');
      return {
        ok: true,
        encoding: fmt.encoding,
        sampleRate: fmt.sampleRate,
        channels: fmt.channels,
        bitsPerSample: fmt.bits,
        seconds: size / fmt.byteRate,
      };
    }
    at = body + size + (size & 1);
  }
  return fail(fmt ? 'no data chunk' : 'no fmt chunk');
}
