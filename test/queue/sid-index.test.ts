import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SidIndex } from '../../src/queue/sid-index.js';

const deep = Boolean(process.env.RCML_DEEP);

describe('SidIndex', () => {
  it('behaves as a Map for any sequence of set, delete, get and has', () => {
    // Few distinct keys so operations hit existing entries, tombstones and rebuilds often.
    const key = fc.oneof(
      fc.integer({ min: 0, max: 60 }).map((i) => `CA${i}`),
      fc.string({ maxLength: 4 }),
    );
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
      fc.record({ kind: fc.constant('delete' as const), key }),
      fc.record({ kind: fc.constant('get' as const), key }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 500 }), (ops) => {
        const index = new SidIndex();
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            index.set(o.key, o.value);
            model.set(o.key, o.value);
          } else if (o.kind === 'delete') {
            expect(index.delete(o.key)).toBe(model.delete(o.key));
          } else {
            expect(index.get(o.key)).toBe(model.get(o.key));
            expect(index.has(o.key)).toBe(model.has(o.key));
          }
          expect(index.size).toBe(model.size);
        }
        for (const [k, v] of model) expect(index.get(k)).toBe(v);
      }),
      { numRuns: deep ? 2000 : 200 },
    );
  });

  it('keeps a sliding window of a hundred thousand sids', () => {
    const index = new SidIndex();
    const sid = (i: number) => `CA${i.toString(16).padStart(32, '0')}`;
    for (let i = 0; i < 100_000; i++) index.set(sid(i), i);
    for (let i = 0; i < 200_000; i++) {
      expect(index.delete(sid(i))).toBe(true);
      index.set(sid(i + 100_000), i + 100_000);
    }
    expect(index.size).toBe(100_000);
    expect([index.get(sid(199_999)), index.get(sid(200_000)), index.get(sid(299_999))]).toEqual([
      undefined,
      200_000,
      299_999,
    ]);
  });
});
