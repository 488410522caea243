import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideAfterBridge,
  isQueueSid,
  parseMaxQueueSize,
  parseQueueName,
  QueueError,
  queueResultFor,
  queueWaitParams,
  randomQueueSid,
  seededQueueSids,
} from '../../src/queue/index.js';

describe('decideAfterBridge (SPEC rejoin table)', () => {
  it('connects the next customer when any is waiting, whatever rejoin says', () => {
    expect(decideAfterBridge({ customersWaiting: 1, rejoin: true })).toBe('connect-next');
    expect(decideAfterBridge({ customersWaiting: 3, rejoin: false })).toBe('connect-next');
  });
  it('re-enqueues with rejoin=true and drops with rejoin=false when nobody waits', () => {
    expect(decideAfterBridge({ customersWaiting: 0, rejoin: true })).toBe('rejoin');
    expect(decideAfterBridge({ customersWaiting: 0, rejoin: false })).toBe('drop');
  });
});

describe('queueResultFor', () => {
  it('maps leave reasons to QueueResult; a timeout has none', () => {
    expect(queueResultFor('leave')).toBe('leave');
    expect(queueResultFor('hangup')).toBe('hangup');
    expect(queueResultFor('redirected')).toBe('redirected');
    expect(queueResultFor('error')).toBe('error');
    expect(queueResultFor('system-error')).toBe('system-error');
    expect(queueResultFor('timeout')).toBeUndefined();
  });
});

describe('queueWaitParams', () => {
  const queue = {
    sid: 'QU' + '0'.repeat(32),
    accountSid: 'AC1',
    name: 'support',
    maxSize: 100,
    dateCreated: 0,
  };
  it('gives position, whole seconds waited, average of served waits, size and limit', () => {
    expect(
      queueWaitParams({
        queue,
        position: 2,
        enqueuedAt: 1_000,
        now: 13_999,
        size: 5,
        served: { count: 2, totalWaitMs: 9_000 },
      }),
    ).toEqual({
      QueueSid: queue.sid,
      QueuePosition: '2',
      QueueTime: '12',
      AvgQueueTime: '5',
      CurrentQueueSize: '5',
      MaxQueueSize: '100',
    });
  });
  it('reports an average of 0 before anyone was served', () => {
    const p = queueWaitParams({
      queue,
      position: 1,
      enqueuedAt: 0,
      now: 0,
      size: 1,
      served: { count: 0, totalWaitMs: 0 },
    });
    expect(p.AvgQueueTime).toBe('0');
    expect(p.QueueTime).toBe('0');
  });
});

describe('queue sids', () => {
  it('are QU + 32 hex digits, random or seeded', () => {
    expect(isQueueSid(randomQueueSid())).toBe(true);
    const gen = seededQueueSids(7);
    const sids = Array.from({ length: 50 }, gen);
    expect(sids.every(isQueueSid)).toBe(true);
    expect(new Set(sids).size).toBe(50);
  });
  it('repeat for the same seed and differ between seeds', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        const x = seededQueueSids(a)();
        expect(seededQueueSids(a)()).toBe(x);
        if (a !== b) expect(seededQueueSids(b)()).not.toBe(x);
      }),
    );
  });
});

describe('options', () => {
  it('accepts size limits 1..5000 and names what is wrong otherwise', () => {
    expect(parseMaxQueueSize(5000, 'maxSize')).toBe(5000);
    expect(parseMaxQueueSize(1, 'maxSize')).toBe(1);
    for (const bad of [0, 5001, 1.5, '10', null]) {
      expect(() => parseMaxQueueSize(bad, 'options.defaultMaxSize')).toThrow(
        /options\.defaultMaxSize: queue size limit must be an integer from 1 to 5000/,
      );
    }
  });
  it('refuses blank queue names with code invalid-name', () => {
    expect(parseQueueName('support', 'queue name')).toBe('support');
    try {
      parseQueueName('  ', 'queue name');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(QueueError);
      expect((e as QueueError).code).toBe('invalid-name');
    }
  });
});
