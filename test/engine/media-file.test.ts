import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mediaKindOf, mediaLength, mediaProblem } from '../../src/engine/media-file.js';
import { checkMp4, writeMp4 } from '../../src/engine/mp4.js';
import { writeWav } from '../../src/engine/wav.js';
import { checkWav } from '../../src/engine/wav-check.js';
import { BASE, callIn, harness, rcml } from './harness.js';

const T0 = Date.UTC(2024, 0, 1);

import { writeG711Wav } from '../support/g711.js';

const runs = process.env.RCML_DEEP ? 5000 : 200;

describe('media files', () => {
  it('G.711 WAVs (A-law 6, µ-law 7, with the 18-byte fmt and a fact chunk) are accepted with their length', () => {
    for (const [format, encoding] of [
      [6, 'alaw'],
      [7, 'mulaw'],
    ] as const) {
      const wav = writeG711Wav(2.5, format);
      expect(checkWav(wav)).toEqual({
        ok: true,
        encoding,
        sampleRate: 8000,
        channels: 1,
        bitsPerSample: 8,
        seconds: 2.5,
      });
      expect(mediaLength(wav)).toBe(2.5);
      expect(mediaProblem(wav, 'wav')).toBeUndefined();
    }
    const float = writeWav(0.1);
    new DataView(float.buffer).setUint16(20, 3, true);
    expect(mediaProblem(float, 'wav')).toMatch(/audio format 3 is not linear PCM/);
  });

  it('an MP4 with a sound or video track is accepted with its mvhd length; other bytes are not', () => {
    expect(checkMp4(writeMp4(3.25))).toEqual({ ok: true, seconds: 3.25, sound: true });
    expect(checkMp4(writeMp4(1, 'vide'))).toEqual({ ok: true, seconds: 1, sound: false });
    expect(mediaLength(writeMp4(3.25))).toBe(3.25);
    expect(mediaProblem(writeWav(0.1), 'mp4')).toMatch(/not an MP4 file/);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(40)]);
    expect(mediaProblem(png, 'mp4')).toBeDefined();
    const text = writeMp4(1);
    text.set([0x74, 0x65, 0x78, 0x74], text.length - 17); // handler 'text': no sound, no picture
    expect(checkMp4(text)).toEqual({ ok: false, reason: 'no sound or video track' });
    expect(mediaKindOf('a.MP4')).toBe('mp4');
    expect(mediaKindOf('a.wav')).toBe('wav');
    expect(mediaKindOf('a.mp3')).toBeUndefined();
  });

  it('the MP4 check never throws and refuses every truncation', () => {
    const good = writeMp4(2);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(good.length), (junk, cut) => {
        const spliced = new Uint8Array([...good.slice(0, cut), ...junk]);
        expect(typeof checkMp4(spliced).ok).toBe('boolean');
        if (junk.length === 0 && cut < good.length) expect(checkMp4(spliced).ok).toBe(false);
      }),
      { numRuns: runs },
    );
  });

  it('Play lasts the length of a µ-law WAV and of an MP4', async () => {
    const h = harness({ '/p': rcml('<Play>/audio/prompt.wav</Play><Play>/audio/clip.mp4</Play>') });
    h.engine.registerHandler(`${BASE}/audio/prompt.wav`, () => ({
      status: 200,
      contentType: 'audio/wav',
      body: writeG711Wav(1.5, 7),
    }));
    h.engine.registerHandler(`${BASE}/audio/clip.mp4`, () => ({
      status: 200,
      contentType: 'video/mp4',
      body: writeMp4(2),
    }));
    const call = await callIn(h, '/p');
    expect(call.endTime).toBe(T0 + 3500);
    expect(h.notifications).toEqual([]);
  });
});
