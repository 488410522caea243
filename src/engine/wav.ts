/** The platform's audio format: 8 kHz, mono, 16-bit linear PCM. */
export const WAV_SAMPLE_RATE = 8000;
const BITS = 16;
const CHANNELS = 1;
const HEADER_BYTES = 44;

/**
 * A complete RIFF/WAVE file of `seconds` of audio: a quiet 440 Hz tone, so players show a
 * real waveform while the file stays small and valid.
 */
export function writeWav(seconds: number): Uint8Array {
  const samples = Math.max(0, Math.round(seconds * WAV_SAMPLE_RATE));
  const dataBytes = samples * CHANNELS * (BITS / 8);
  const buf = new Uint8Array(HEADER_BYTES + dataBytes);
  const view = new DataView(buf.buffer);
  const ascii = (offset: number, text: string): void => {
    for (let i = 0; i < text.length; i++) buf[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, CHANNELS, true);
  view.setUint32(24, WAV_SAMPLE_RATE, true);
  view.setUint32(28, WAV_SAMPLE_RATE * CHANNELS * (BITS / 8), true);
  view.setUint16(32, CHANNELS * (BITS / 8), true);
  view.setUint16(34, BITS, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples; i++) {
    view.setInt16(
      HEADER_BYTES + i * 2,
      Math.round(1000 * Math.sin((2 * Math.PI * 440 * i) / WAV_SAMPLE_RATE)),
      true,
    );
  }
  return buf;
}

/** Format and length of a WAV file, read from its header. */
export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Seconds of audio in the data chunk. */
  duration: number;
}

/** Reads a RIFF/WAVE header; undefined when the bytes are not a WAV file. */
export function readWavInfo(bytes: Uint8Array): WavInfo | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number): string => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return undefined;
  let offset = 12;
  let byteRate = 0;
  let info: Omit<WavInfo, 'duration'> | undefined;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ' && offset + 24 <= bytes.length) {
      info = {
        channels: view.getUint16(offset + 10, true),
        sampleRate: view.getUint32(offset + 12, true),
        bitsPerSample: view.getUint16(offset + 22, true),
      };
      byteRate = view.getUint32(offset + 16, true);
    } else if (id === 'data') {
      if (!info || byteRate === 0) return undefined;
      return { ...info, duration: size / byteRate };
    }
    offset += 8 + size + (size & 1);
  }
  return undefined;
}
