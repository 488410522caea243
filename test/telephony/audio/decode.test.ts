import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { writeMp4 } from '../../../src/engine/mp4.js';
import { AudioFormatError, decodeWav, encodeWav } from '../../../src/telephony/audio/decode.js';
import { writeG711Wav } from '../../support/g711.js';

/** A 400 Hz tone, `seconds` long at `rate`. */
function tone(rate: number, seconds: number): Int16Array {
  const pcm = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 400 * i) / rate));
  return pcm;
}

function wav(channels: number, rate: number, bits: string, samples: ArrayLike<number>): Uint8Array {
  const w = new wavefile.WaveFile();
  w.fromScratch(channels, rate, bits, samples);
  return w.toBuffer();
}

/** Largest difference between two signals of the same length (G.711 steps are at most 256 here). */
function maxDiff(a: Int16Array, b: Int16Array): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

const level = (pcm: Int16Array) => pcm.reduce((a, s) => a + Math.abs(s), 0) / pcm.length;

describe('WAV decoding to 8 kHz mono', () => {
  it('keeps 8 kHz 16-bit PCM as it is, and writes it back unchanged', () => {
    const pcm = tone(8000, 0.1);
    const decoded = decodeWav(wav(1, 8000, '16', pcm));
    expect(decoded).toEqual(pcm);
    expect(decodeWav(encodeWav(pcm))).toEqual(pcm);
  });

  it('resamples other rates and mixes channels down', () => {
    const pcm = tone(16000, 0.5);
    const stereo = new Int16Array(pcm.length * 2);
    pcm.forEach((s, i) => {
      stereo[2 * i] = s;
      stereo[2 * i + 1] = s;
    });
    const decoded = decodeWav(wav(2, 16000, '16', stereo));
    expect(decoded.length).toBe(4000);
    expect(level(decoded)).toBeGreaterThan(3000);
  });

  it('reads 8-bit PCM, µ-law and A-law', () => {
    const pcm = tone(8000, 0.2);
    const eight = Array.from(pcm, (s) => Math.round(s / 256) + 128);
    expect(level(decodeWav(wav(1, 8000, '8', eight)))).toBeGreaterThan(3000);
    const mu = new wavefile.WaveFile();
    mu.fromScratch(1, 8000, '8m', alawmulaw.mulaw.encode(pcm));
    expect(maxDiff(decodeWav(mu.toBuffer()), pcm)).toBeLessThan(300);
    const a = new wavefile.WaveFile();
    a.fromScratch(1, 8000, '8a', alawmulaw.alaw.encode(pcm));
    expect(maxDiff(decodeWav(a.toBuffer()), pcm)).toBeLessThan(300);
  });

  it('reads the G.711 prompts the designer and announcements take (18-byte fmt, a fact chunk)', () => {
    for (const format of [6, 7] as const) {
      const decoded = decodeWav(writeG711Wav(0.5, format));
      expect(decoded.length).toBe(4000);
      expect(decoded.every((s) => Math.abs(s) < 16)).toBe(true);
    }
  });

  it('refuses bytes that are no WAV file, an MP4 among them (a Play of one fails)', () => {
    expect(() => decodeWav(new TextEncoder().encode('ID3 not a wav'))).toThrow(AudioFormatError);
    expect(() => decodeWav(writeMp4(1))).toThrow(AudioFormatError);
  });
});
