import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueueError } from '../../src/queue/errors.js';
import { FifoLine } from '../../src/queue/fifo-line.js';
import type { QueueMember } from '../../src/queue/types.js';

const member = (callSid: string, enqueuedAt = 0): QueueMember => ({ callSid, side: 'enqueued', enqueuedAt });
const deep = Boolean(process.env.RCML_DEEP);
const runs = deep ? 2000 : 200;

describe('FifoLine', () => {
  it('keeps arrival order and 1-based positions', () => {
    const line = new FifoLine();
    expect(line.push(member('a'))).toBe(1);
    expect(line.push(member('b'))).toBe(2);
    expect(line.push(member('c'))).toBe(3);
    expect(line.position('c')?.position).toBe(3);
    expect(line.remove('b')).toEqual({ member: member('b'), position: 2 });
    expect(line.position('c')?.position).toBe(2);
    expect(line.shift()?.callSid).toBe('a');
    expect(line.position('c')?.position).toBe(1);
    expect([...line.members()].map((m) => m.callSid)).toEqual(['c']);
    expect(line.size).toBe(1);
  });

  it('returns undefined for calls that are not waiting', () => {
    const line = new FifoLine();
    expect(line.shift()).toBeUndefined();
    expect(line.remove('x')).toBeUndefined();
    expect(line.position('x')).toBeUndefined();
  });

  it('refuses a call already waiting', () => {
    const line = new FifoLine();
    line.push(member('a'));
    expect(() => line.push(member('a'))).toThrow(QueueError);
    expect(() => line.push(member('a'))).toThrow(/already waiting/);
  });

  it('keeps positions right over long runs with few waiting', () => {
    const line = new FifoLine();
    for (let i = 0; i < 1000; i++) {
      line.push(member(`c${i}`));
      if (i >= 5) expect(line.shift()?.callSid).toBe(`c${i - 5}`);
    }
    expect([...line.members()].map((m) => line.position(m.callSid)?.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps FIFO order and positions 1..n through ring growth, wrap-round and compaction', () => {
    const line = new FifoLine();
    const model: string[] = [];
    let next = 0;
    // Waves: fill past several ring sizes, punch holes, drain from the head, repeat.
    for (let wave = 0; wave < 6; wave++) {
      for (let i = 0; i < 200 + wave * 37; i++) {
        const sid = `c${next++}`;
        model.push(sid);
        expect(line.push(member(sid))).toBe(model.length);
      }
      for (let i = model.length - 2; i > 0; i -= 3) {
        const sid = model[i];
        expect(line.remove(sid)?.position).toBe(i + 1);
        model.splice(i, 1);
      }
      for (let i = 0; i < 150; i++) expect(line.shift()?.callSid).toBe(model.shift());
      expect(model.map((sid) => line.position(sid)?.position)).toEqual(model.map((_, i) => i + 1));
    }
    expect([...line.members()].map((m) => m.callSid)).toEqual(model);
  });

  it(
    'matches an array model for any sequence of push, shift, remove and position',
    () => {
      const op = fc.oneof(
        { arbitrary: fc.constant({ kind: 'push' as const }), weight: 3 },
        fc.constant({ kind: 'shift' as const }),
        fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
        fc.record({ kind: fc.constant('position' as const), pick: fc.nat() }),
      );
      fc.assert(
        fc.property(fc.array(op, { maxLength: 400, size: 'max' }), (ops) => {
          const line = new FifoLine();
          const model: string[] = [];
          let next = 0;
          for (const o of ops) {
            if (o.kind === 'push') {
              const sid = `c${next++}`;
              model.push(sid);
              expect(line.push(member(sid))).toBe(model.length);
            } else if (o.kind === 'shift') {
              expect(line.shift()?.callSid).toBe(model.shift());
            } else if (o.kind === 'position' && model.length > 0) {
              const i = o.pick % model.length;
              expect(line.position(model[i])).toEqual({ member: member(model[i]), position: i + 1 });
            } else if (o.kind === 'remove' && model.length > 0) {
              const i = o.pick % model.length;
              const [sid] = model.splice(i, 1);
              expect(line.remove(sid)?.position).toBe(i + 1);
              expect(line.remove(sid)).toBeUndefined();
            }
            expect(line.size).toBe(model.length);
          }
          expect([...line.members()].map((m) => m.callSid)).toEqual(model);
          expect(model.map((sid) => line.position(sid)?.position)).toEqual(model.map((_, i) => i + 1));
        }),
        { numRuns: runs },
      );
    },
    deep ? 300_000 : 30_000,
  );
});
