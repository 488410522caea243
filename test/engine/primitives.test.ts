import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso, rfc2822 } from '../../src/engine/dates.js';
import { organizationSid, randomSids, seededSids } from '../../src/engine/sids.js';
import { readWavInfo, writeWav } from '../../src/engine/wav.js';

describe('sids', () => {
  it('are a prefix and 32 hex digits, repeatable from a seed', () => {
    const a = seededSids(42);
    const b = seededSids(42);
    const sids = [a.next('CA'), a.next('RE'), a.next('GA')];
    expect(sids).toEqual([b.next('CA'), b.next('RE'), b.next('GA')]);
    for (const sid of sids) expect(sid).toMatch(/^(CA|RE|GA)[0-9a-f]{32}$/);
    expect(new Set(sids.map((s) => s.slice(2))).size).toBe(3);
    expect(seededSids(43).next('CA')).not.toBe(seededSids(42).next('CA'));
    expect(randomSids().next('NO')).toMatch(/^NO[0-9a-f]{32}$/);
  });

  it('spells seeded sids exactly as the sfc32 words in hex, for any seed and prefix', () => {
    // The reference spelling: a prefix and four 32-bit words as 8 hex digits each.
    const reference = (seed: number, prefixes: string[]): string[] => {
      let a = 0x9e3779b9;
      let b = 0x243f6a88;
      let c = 0xb7e15162;
      let d = seed >>> 0;
      const word = (): number => {
        const t = (((a + b) | 0) + d) | 0;
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (c << 21) | (c >>> 11);
        c = (c + t) | 0;
        return t >>> 0;
      };
      for (let i = 0; i < 12; i++) word();
      const hex = (): string => word().toString(16).padStart(8, '0');
      return prefixes.map((p) => p + hex() + hex() + hex() + hex());
    };
    fc.assert(
      fc.property(
        fc.nat(),
        fc.array(fc.constantFrom('CA', 'RE', 'AC', 'SD', 'QU', 'X'), { maxLength: 8 }),
        (seed, prefixes) => {
          const sids = seededSids(seed);
          expect(prefixes.map((p) => sids.next(p))).toEqual(reference(seed, prefixes));
        },
      ),
    );
    const random = randomSids();
    const drawn = Array.from({ length: 300 }, () => random.next('CA'));
    for (const sid of drawn) expect(sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(new Set(drawn).size).toBe(300);
  });

  it("derives an organization sid from the account's, the same every time it is asked", () => {
    const digest = (sid: string): string =>
      `OR${createHash('sha256').update(`organization:${sid}`).digest('hex').slice(0, 32)}`;
    const accounts = Array.from({ length: 1_100 }, (_, i) => `AC${String(i).padStart(32, '0')}`);
    // Twice over more accounts than it remembers at once: every answer is still the account's own.
    const expected = accounts.map(digest);
    expect(accounts.map((a) => organizationSid(a))).toEqual(expected);
    expect(accounts.map((a) => organizationSid(a))).toEqual(expected);
  });
});

describe('wav', () => {
  it('writes an 8 kHz mono 16-bit PCM file whose header gives its length back', () => {
    const wav = writeWav(2.5);
    expect(wav.length).toBe(44 + 2.5 * 8000 * 2);
    expect(String.fromCharCode(...wav.subarray(0, 4))).toBe('RIFF');
    expect(readWavInfo(wav)).toEqual({ sampleRate: 8000, channels: 1, bitsPerSample: 16, duration: 2.5 });
  });

  it('rejects bytes that are not a WAV file', () => {
    expect(readWavInfo(new TextEncoder().encode('<Response/>'))).toBeUndefined();
    expect(readWavInfo(new Uint8Array(0))).toBeUndefined();
  });
});

describe('rfc2822', () => {
  it('formats UTC with a numeric offset', () => {
    expect(rfc2822(Date.UTC(2024, 0, 1, 9, 5, 7))).toBe('Mon, 01 Jan 2024 09:05:07 +0000');
  });
});

describe('iso', () => {
  it('gives each instant its own ISO 8601 text, asked again or in turn', () => {
    const a = Date.UTC(2024, 0, 1, 9, 5, 7, 12);
    const b = a + 1;
    expect([iso(a), iso(a), iso(b), iso(a)]).toEqual([
      '2024-01-01T09:05:07.012Z',
      '2024-01-01T09:05:07.012Z',
      '2024-01-01T09:05:07.013Z',
      '2024-01-01T09:05:07.012Z',
    ]);
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});
