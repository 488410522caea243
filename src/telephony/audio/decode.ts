import wavefile from 'wavefile';

/** The call audio rate: G.711's 8 kHz. */
export const CALL_RATE = 8000;

/** Audio a call cannot play: not WAV, or a WAV encoding this decoder does not read. */
export class AudioFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AudioFormatError';
  }
}

interface FmtChunk {
  audioFormat: number;
  numChannels: number;
  sampleRate: number;
  bitsPerSample: number;
}

/** WAVE format codes read here: PCM, IEEE float, A-law, µ-law, and the extensible wrapper. */
const READABLE = new Set([1, 3, 6, 7, 0xfffe]);

/**
 * Decodes a WAV file of any rate (PCM 8/16/24/32-bit, float, µ-law, A-law; mono or more
 * channels, mixed down) to 8 kHz 16-bit mono PCM, resampled with wavefile.
 */
export function decodeWav(bytes: Uint8Array): Int16Array {
  const wav = new wavefile.WaveFile();
  try {
    wav.fromBuffer(bytes);
  } catch (err) {
    throw new AudioFormatError(`not a WAV file: ${err instanceof Error ? err.message : String(err)}`);
  }
  const fmt = wav.fmt as FmtChunk;
  if (!READABLE.has(fmt.audioFormat))
    throw new AudioFormatError(`WAV format ${fmt.audioFormat} is not supported`);
  // Read before converting: wavefile's conversions replace (and clear) the fmt chunk.
  const rate = fmt.sampleRate;
  if (fmt.audioFormat === 7) wav.fromMuLaw();
  else if (fmt.audioFormat === 6) wav.fromALaw();
  if (wav.bitDepth !== '16') wav.toBitDepth('16');
  if (rate !== CALL_RATE) wav.toSampleRate(CALL_RATE, { method: 'sinc' });
  const channels = (wav.fmt as FmtChunk).numChannels;
  const samples = wav.getSamples(true, Int16Array) as unknown as Int16Array;
  if (channels === 1) return samples;
  const frames = Math.floor(samples.length / channels);
  const mono = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[i * channels + c];
    mono[i] = Math.round(sum / channels);
  }
  return mono;
}

/** A WAV file (8 kHz, 16-bit, mono) of PCM samples: how recordings are stored. */
export function encodeWav(pcm: Int16Array): Uint8Array {
  const header = 44;
  const bytes = new Uint8Array(header + pcm.length * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, CALL_RATE, true);
  view.setUint32(28, CALL_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, pcm.length * 2, true);
  for (let i = 0; i < pcm.length; i++) view.setInt16(header + i * 2, pcm[i], true);
  return bytes;
}
