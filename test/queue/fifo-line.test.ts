import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueueError } from '../../src/queue/errors.js';
import { FifoLine } from '../../src/queue/fifo-line.js';
import type { QueueMember } from '../../src/queue/types.js';

const member = (callSid: string, enqueuedAt = 0): QueueMember => ({ callSid, side: 'enqueued', enqueuedAt });
const runs = process.env.RCML_DEEP ? 2000 : 200;

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

  it('keeps positions right across slot renumbering (long runs with few waiting)', () => {
    const line = new FifoLine();
    for (let i = 0; i < 1000; i++) {
      line.push(member(`c${i}`));
      if (i >= 5) expect(line.shift()?.callSid).toBe(`c${i - 5}`);
    }
    expect([...line.members()].map((m) => line.position(m.callSid)?.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('matches an array model for any sequence of push, shift and remove', () => {
    const op = fc.oneof(
      fc.constant({ kind: 'push' as const }),
      fc.constant({ kind: 'shift' as const }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300, size: 'max' }), (ops) => {
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
          } else if (model.length > 0) {
            const i = o.pick % model.length;
            const [sid] = model.splice(i, 1);
            expect(line.remove(sid)?.position).toBe(i + 1);
          }
          expect(line.size).toBe(model.length);
        }
        expect([...line.members()].map((m) => m.callSid)).toEqual(model);
        expect(model.map((sid) => line.position(sid)?.position)).toEqual(model.map((_, i) => i + 1));
      }),
      { numRuns: runs },
    );
  });
});
