/** Is this really a RIFF/WAVE file of PCM audio? Checked chunk by chunk, never trusting sizes. */

/** Why a file is not a usable WAV, or undefined when it is. */
export function wavProblem(bytes: Uint8Array): string | undefined {
  if (bytes.byteLength < 12) return 'not a WAV file: shorter than a RIFF header';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') return 'not a WAV file: no RIFF/WAVE header';
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.byteLength)
    return `truncated WAV file: the header announces ${riffEnd} bytes, got ${bytes.byteLength}`;
  let at = 12;
  let format: number | undefined;
  while (at + 8 <= riffEnd) {
    const id = ascii(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (body + size > riffEnd) return `truncated WAV file: chunk "${id}" runs past the end`;
    if (id === 'fmt ') {
      if (size < 16) return 'invalid WAV file: "fmt " chunk too short';
      format = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE names its real format in the first two bytes of the sub-format GUID.
      if (format === 0xfffe && size >= 40) format = view.getUint16(body + 24, true);
      const channels = view.getUint16(body + 2, true);
      const rate = view.getUint32(body + 4, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1) return `unsupported WAV file: audio format ${format}, only PCM (1) is accepted`;
      if (channels < 1 || rate < 1 || bits < 1) return 'invalid WAV file: zero channels, rate or sample size';
    } else if (id === 'data') {
      if (format === undefined) return 'invalid WAV file: "data" chunk before "fmt "';
      return undefined;
    }
    at = body + size + (size % 2);
  }
  return format === undefined ? 'invalid WAV file: no "fmt " chunk' : 'invalid WAV file: no "data" chunk';
}
