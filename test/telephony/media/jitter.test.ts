import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JitterBuffer } from '../../../src/telephony/media/jitter.js';

const frame = (n: number) => new Uint8Array(160).fill(n & 0xff);

describe('jitter buffer', () => {
  it('waits for 40 ms, then gives frames in sequence order, a gap as null', () => {
    const jb = new JitterBuffer();
    jb.push(11, frame(11));
    expect(jb.pull()).toBeUndefined();
    jb.push(10, frame(10));
    jb.push(13, frame(13));
    expect(jb.pull()?.[0]).toBe(10);
    expect(jb.pull()?.[0]).toBe(11);
    expect(jb.pull()).toBeNull();
    expect(jb.pull()?.[0]).toBe(13);
    expect(jb.pull()).toBeUndefined();
  });

  it('never holds more than 60 ms, and drops late packets', () => {
    const jb = new JitterBuffer();
    for (let s = 0; s < 10; s++) jb.push(s, frame(s));
    expect(jb.pull()?.[0]).toBe(7);
    jb.push(3, frame(3));
    expect(jb.pull()?.[0]).toBe(8);
  });

  it('gives every packet of a reordered window exactly once, in order (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 3, maxLength: 40 }),
        (start, swaps) => {
          const order = swaps.map((_, i) => i);
          // Swap disjoint neighbours: no packet more than one place out of order.
          for (let i = 0; i + 1 < order.length; i++) {
            if (swaps[i] !== 1) continue;
            [order[i], order[i + 1]] = [order[i + 1], order[i]];
            i++;
          }
          const jb = new JitterBuffer(320, 10_000);
          const out: number[] = [];
          for (const i of order) {
            jb.push((start + i) & 0xffff, frame(i));
          }
          for (;;) {
            const f = jb.pull();
            if (f === undefined) break;
            if (f) out.push(f[0]);
          }
          expect(out).toEqual(order.map((_, i) => i & 0xff).sort((a, b) => a - b));
        },
      ),
    );
  });
});
