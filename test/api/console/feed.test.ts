import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ConsoleMessage, createConsoleFeed } from '../../../src/api/console/feed.js';
import type { CallRecord, RecordSink } from '../../../src/engine/records.js';

const ACCOUNTS = ['AC1', 'AC2', 'AC3'];

const call = (sid: string, accountSid: string, status: CallRecord['status']): CallRecord => ({
  sid,
  accountSid,
  direction: 'inbound',
  from: '+1',
  to: '+2',
  status,
  instanceId: 'i',
  apiVersion: '2012-04-24',
  dateCreated: 0,
  dateUpdated: 0,
});

const step = fc.oneof(
  fc.record({ kind: fc.constant('call' as const), call: fc.nat(20), account: fc.nat(2) }),
  fc.record({ kind: fc.constant('verb' as const), call: fc.nat(20) }),
  fc.record({ kind: fc.constant('bridge' as const), call: fc.nat(20), peer: fc.nat(20) }),
);

describe('the console feed', () => {
  it('stays within its bounds and tells each account only about its own calls', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 200 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 5 }),
        (steps, maxCalls, maxEvents) => {
          const feed = createConsoleFeed({ calls: maxCalls, eventsPerCall: maxEvents });
          const sink = feed.wrapSink<RecordSink>({});
          const owner = new Map<string, string>();
          const heard = new Map<string, ConsoleMessage[]>();
          for (const account of ACCOUNTS) {
            const list: ConsoleMessage[] = [];
            heard.set(account, list);
            feed.subscribe(account, { message: (m) => list.push(m), end: () => {} });
          }
          for (const s of steps) {
            const sid = `CA${s.call}`;
            if (s.kind === 'call') {
              // A call keeps the account it was created with.
              const account = owner.get(sid) ?? ACCOUNTS[s.account];
              owner.set(sid, account);
              sink.call?.(call(sid, account, 'in-progress'));
            } else if (s.kind === 'verb') {
              feed.onEvent({ type: 'verb', at: 0, callSid: sid, verb: 'Say', documentUrl: 'http://x' });
            } else {
              feed.onEvent({ type: 'bridge', at: 0, callSid: sid, peerSid: `CA${s.peer}`, action: 'start' });
            }
          }
          let remembered = 0;
          for (const account of ACCOUNTS) {
            const recent = feed.recentCalls(account);
            remembered += recent.length;
            for (const c of recent) {
              expect(owner.get(c.sid)).toBe(account);
              const timeline = feed.timeline(account, c.sid);
              expect(timeline?.events.length).toBeLessThanOrEqual(maxEvents);
              for (const other of ACCOUNTS)
                if (other !== account) expect(feed.timeline(other, c.sid)).toBeUndefined();
            }
            for (const m of heard.get(account) ?? []) {
              if (m.type === 'call') expect(owner.get(m.call.sid)).toBe(account);
              if (m.type === 'event' && m.event.type === 'verb')
                expect(owner.get(m.event.callSid)).toBe(account);
            }
          }
          expect(remembered).toBeLessThanOrEqual(maxCalls);
        },
      ),
    );
  });

  it('ends every stream when it closes, and a late subscriber at once', () => {
    const feed = createConsoleFeed();
    const ended: string[] = [];
    feed.subscribe('AC1', { message: () => {}, end: () => ended.push('a') });
    feed.subscribe('AC2', { message: () => {}, end: () => ended.push('b') });
    feed.close();
    feed.subscribe('AC1', { message: () => {}, end: () => ended.push('late') });
    expect(ended).toEqual(['a', 'b', 'late']);
  });
});
