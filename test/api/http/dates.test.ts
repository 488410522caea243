import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso8601, rfc2822 } from '../../../src/api/http/dates.js';

const runs = process.env.RCML_DEEP ? 20_000 : 2000;
const viaDate = {
  rfc2822: (ms: number) => new Date(ms).toUTCString().replace(/GMT$/, '+0000'),
  iso8601: (ms: number) => new Date(ms).toISOString(),
};

describe('date formatters', () => {
  it('write exactly what Date writes, for any time Date can hold (property)', () => {
    const anyTime = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: 0, max: 4_102_444_800_000 }),
      fc.double({ min: -1e13, max: 3e14, noNaN: true }),
      fc.constantFrom(0, -1, 253_402_300_799_999, 253_402_300_800_000, 951_782_400_000, 86_399_999),
    );
    fc.assert(
      fc.property(anyTime, (ms) => {
        expect(rfc2822(ms)).toBe(viaDate.rfc2822(ms));
        expect(iso8601(ms)).toBe(viaDate.iso8601(ms));
      }),
      { numRuns: runs },
    );
  });

  it('keep giving the right text once many distinct days were formatted', () => {
    const day = 86_400_000;
    for (let i = 0; i < 5000; i++) rfc2822(i * day * 3 + 1234);
    for (const ms of [
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(1999, 11, 31),
      Date.UTC(2024, 2, 5, 9, 4, 3, 7),
    ]) {
      expect(rfc2822(ms)).toBe(viaDate.rfc2822(ms));
      expect(iso8601(ms)).toBe(viaDate.iso8601(ms));
    }
  });
});
