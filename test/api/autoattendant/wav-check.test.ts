import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWav, sanitizeFileName } from '../../../src/api/autoattendant/wav-check.js';
import { writeWav } from '../../../src/engine/wav.js';

const runs = process.env.RCML_DEEP ? 5000 : 300;

describe('checkWav', () => {
  it('accepts every WAV the engine writes, with its length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8000 }), (samples) => {
        const check = checkWav(writeWav(samples / 8000));
        expect(check).toEqual({
          ok: true,
          encoding: 'pcm',
          sampleRate: 8000,
          channels: 1,
          bitsPerSample: 16,
          seconds: samples / 8000,
        });
      }),
      { numRuns: 50 },
    );
  });

  it('never throws, and refuses every truncation of a valid file', () => {
    const good = writeWav(0.01);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(typeof checkWav(bytes).ok).toBe('boolean');
      }),
      { numRuns: runs },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length - 1 }), (n) => {
        expect(checkWav(good.subarray(0, n)).ok).toBe(false);
      }),
      { numRuns: runs },
    );
  });

  it('refuses corrupted header fields with a reason', () => {
    const field = (offset: number, value: number, bytes: 2 | 4) => {
      const wav = writeWav(0.01);
      const view = new DataView(wav.buffer);
      if (bytes === 2) view.setUint16(offset, value, true);
      else view.setUint32(offset, value, true);
      return checkWav(wav);
    };
    expect(field(22, 3, 2)).toEqual({ ok: false, reason: '3 channels (expected 1 or 2)' });
    expect(field(24, 4000, 4)).toEqual({ ok: false, reason: 'sample rate 4000 Hz (expected 8000-48000)' });
    expect(field(34, 24, 2)).toEqual({ ok: false, reason: '24 bits per sample (expected 8 or 16)' });
    expect(field(28, 1, 4)).toEqual({ ok: false, reason: 'inconsistent block align or byte rate' });
    expect(field(16, 8, 4)).toEqual({ ok: false, reason: 'fmt chunk too short (8 bytes)' });
    expect(field(40, 0, 4)).toEqual({ ok: false, reason: 'empty data chunk' });
    expect(field(12, 0x41414141, 4).ok).toBe(false);
  });
});

describe('sanitizeFileName', () => {
  it('keeps the last segment in a safe alphabet, ending in .wav', () => {
    expect(sanitizeFileName('greeting.wav')).toBe('greeting.wav');
    expect(sanitizeFileName('C:\\Users\\me\\Hello World.WAV')).toBe('Hello_World.wav');
    expect(sanitizeFileName('../../.hidden')).toBe('hidden.wav');
    expect(sanitizeFileName('')).toBe('announcement.wav');
    expect(sanitizeFileName('日本語.wav')).toBe('announcement.wav');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        const name = sanitizeFileName(raw);
        expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\.wav$|^announcement\.wav$/);
        expect(name.length).toBeLessThanOrEqual(100);
      }),
      { numRuns: runs },
    );
  });
});
