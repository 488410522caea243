import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIX_SAMPLES, type MixSlot, mixTick, saturate } from '../../../src/telephony/media/mixer.js';

const frame = fc.int16Array({ minLength: MIX_SAMPLES, maxLength: MIX_SAMPLES });
const member = fc.record({ input: frame, heard: fc.boolean(), own: fc.option(frame, { nil: undefined }) });

describe('conference mix', () => {
  it('gives each member saturate(sum of the others heard + room play + its own play), never its own input (property)', () => {
    fc.assert(
      fc.property(
        fc.array(member, { maxLength: 8 }),
        fc.option(frame, { nil: undefined }),
        (members, shared) => {
          const slots: MixSlot[] = members.map((m) => ({ ...m, output: new Int16Array(MIX_SAMPLES) }));
          mixTick(slots, shared, new Int32Array(MIX_SAMPLES));
          // The definition, pair by pair: what the mix must equal.
          slots.forEach((slot, i) => {
            const expected = new Int16Array(MIX_SAMPLES);
            for (let s = 0; s < MIX_SAMPLES; s++) {
              let value = (shared?.[s] ?? 0) + (slot.own?.[s] ?? 0);
              slots.forEach((other, j) => {
                if (j !== i && other.heard) value += other.input[s];
              });
              expected[s] = saturate(value);
            }
            expect(slot.output).toEqual(expected);
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads each heard input twice per sample and a muted one never, whatever the room size: no work per pair', () => {
    for (const size of [2, 10, 60]) {
      const reads = new Array<number>(size).fill(0);
      const slots: MixSlot[] = Array.from({ length: size }, (_, i) => {
        const input = new Proxy(new Int16Array(MIX_SAMPLES).fill(i), {
          get(target, key) {
            if (typeof key === 'string' && /^\d+$/.test(key)) reads[i]++;
            return Reflect.get(target, key);
          },
        });
        return { input, heard: i % 3 !== 0, own: undefined, output: new Int16Array(MIX_SAMPLES) };
      });
      mixTick(slots, undefined, new Int32Array(MIX_SAMPLES));
      expect(reads).toEqual(reads.map((_, i) => (i % 3 !== 0 ? 2 * MIX_SAMPLES : 0)));
    }
  });

  it('saturates a loud room instead of wrapping around', () => {
    const loud = () => new Int16Array(MIX_SAMPLES).fill(30000);
    const slots: MixSlot[] = [0, 1, 2].map(() => ({
      input: loud(),
      heard: true,
      own: undefined,
      output: new Int16Array(MIX_SAMPLES),
    }));
    mixTick(slots, undefined, new Int32Array(MIX_SAMPLES));
    for (const slot of slots) expect([...new Set(slot.output)]).toEqual([32767]);
  });
});
