/**
 * Checks that bytes are a playable RIFF/WAVE file of linear PCM, reading every chunk header
 * within bounds: `RIFF` size, a `fmt ` chunk (format 1, 1-2 channels, 8000-48000 Hz,
 * 8 or 16 bits, consistent block align and byte rate) before a non-empty `data` chunk that
 * fits in the file.
 */
export type WavCheck =
  | { ok: true; sampleRate: number; channels: number; bitsPerSample: number; seconds: number }
  | { ok: false; reason: string };

const tag = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

export function checkWav(bytes: Uint8Array): WavCheck {
  const fail = (reason: string): WavCheck => ({ ok: false, reason });
  if (bytes.length < 44) return fail(`too short for a WAV file (${bytes.length} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (tag(bytes, 0) !== 'RIFF') return fail('missing RIFF header');
  if (tag(bytes, 8) !== 'WAVE') return fail('RIFF file is not WAVE');
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.length) return fail(`RIFF size ${riffEnd - 8} exceeds the file`);
  let fmt: { channels: number; sampleRate: number; bits: number; byteRate: number } | undefined;
  let at = 12;
  while (at + 8 <= riffEnd) {
    const id = tag(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (body + size > riffEnd) return fail(`chunk '${id}' at byte ${at} runs past the end of the file`);
    if (id === 'fmt ') {
      if (size < 16) return fail(`fmt chunk too short (${size} bytes)`);
      const format = view.getUint16(body, true);
      if (format !== 1) return fail(`audio format ${format} is not linear PCM (1)`);
      const channels = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const byteRate = view.getUint32(body + 8, true);
      const blockAlign = view.getUint16(body + 12, true);
      const bits = view.getUint16(body + 14, true);
      if (channels < 1 || channels > 2) return fail(`${channels} channels (expected 1 or 2)`);
      if (sampleRate < 8000 || sampleRate > 48000)
        return fail(`sample rate ${sampleRate} Hz (expected 8000-48000)`);
      if (bits !== 8 && bits !== 16) return fail(`${bits} bits per sample (expected 8 or 16)`);
      if (blockAlign !== (channels * bits) / 8 || byteRate !== sampleRate * blockAlign) {
        return fail('inconsistent block align or byte rate');
      }
      fmt = { channels, sampleRate, bits, byteRate };
    } else if (id === 'data') {
      if (!fmt) return fail('data chunk before the fmt chunk');
      if (size === 0) return fail('empty data chunk');
      return {
        ok: true,
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

/**
 * A safe file name for an upload: its last path segment, characters other than letters,
 * digits, `.`, `-` and `_` replaced by `_`, no leading dots, at most 100 characters, ending
 * in `.wav`. Never empty.
 */
export function sanitizeFileName(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const name = last
    .replace(/\.wav$/i, '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 96)
    .replace(/[._-]+$/, '');
  return `${name === '' ? 'announcement' : name}.wav`;
}
