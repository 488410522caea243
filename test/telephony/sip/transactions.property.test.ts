/**
 * Whatever the network does to the messages (retransmitted, duplicated, reordered, delayed), the
 * transaction layer makes exactly one transaction of each request, gives each request one final
 * answer, and leaves no timer running once its transactions are over.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerOf, type SipRequest, type SipResponse } from '../../../src/telephony/sip/message.js';
import { responseTo } from '../../../src/telephony/sip/responses.js';
import { T4 } from '../../../src/telephony/sip/timers.js';
import type { InviteServerTransaction } from '../../../src/telephony/sip/transactions/invite-server.js';
import type { ServerTransaction } from '../../../src/telephony/sip/transactions/layer.js';
import { answerTo, requestOf } from './messages.js';
import { PEER, testStack } from './stack.js';

const RUNS = process.env.RCML_DEEP ? 2000 : 150;
const METHODS = ['INVITE', 'BYE', 'OPTIONS', 'INFO', 'REGISTER'] as const;

/** A request of the far end's: how often it arrives, our final answer, how often its ACK comes. */
const incoming = fc.record({
  method: fc.constantFrom(...METHODS),
  copies: fc.integer({ min: 1, max: 4 }),
  provisional: fc.boolean(),
  final: fc.constantFrom(200, 404, 486, 603),
  acks: fc.integer({ min: 0, max: 2 }),
});

type Step =
  | { kind: 'deliver'; index: number }
  | { kind: 'answer'; index: number }
  | { kind: 'ack'; index: number }
  | { kind: 'wait'; ms: number };

/** Steps for every request in an order the keys give, with waits between them under T4 in all. */
function schedule<T extends { copies: number; acks?: number }>(
  items: T[],
  keys: number[],
  waits: number[],
): Step[] {
  const steps: Step[] = [];
  items.forEach((item, index) => {
    for (let i = 0; i < item.copies; i++) steps.push({ kind: 'deliver', index });
    steps.push({ kind: 'answer', index });
    for (let i = 0; i < (item.acks ?? 0); i++) steps.push({ kind: 'ack', index });
  });
  const ordered = steps
    .map((step, i) => ({ step, key: keys[i % keys.length] ?? i }))
    .sort((a, b) => a.key - b.key);
  const out: Step[] = [];
  ordered.forEach(({ step }, i) => {
    out.push(step);
    const ms = waits[i % Math.max(1, waits.length)] ?? 0;
    if (ms > 0) out.push({ kind: 'wait', ms });
  });
  return out;
}

describe('transaction layer under a hostile network (property)', () => {
  it('server side: one transaction and one final answer per request; no timer outlives its transaction', () => {
    fc.assert(
      fc.property(
        fc.array(incoming, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 40 }),
        // Waits add up to under T4: a real peer stops retransmitting once it has the final answer.
        fc.array(fc.integer({ min: 0, max: Math.floor((T4 - 1) / 40) }), { maxLength: 40 }),
        (items, keys, waits) => {
          const handed = new Map<number, ServerTransaction[]>();
          const wanted = new Set<number>();
          const indexOf = (request: SipRequest) =>
            Number(/^call-r(\d+)$/.exec(headerOf(request.headers, 'call-id') ?? '')?.[1]);
          /** Our answer: now, or as soon as the request is in (the step came before it). */
          const answer = (index: number) => {
            wanted.add(index);
            const t = handed.get(index)?.[0];
            if (!t || t.answered) return;
            const item = items[index];
            if (item.provisional)
              t.respond(responseTo(t.request, item.method === 'INVITE' ? 180 : 100, { toTag: 'us' }));
            t.respond(responseTo(t.request, item.final, { toTag: 'us' }));
          };
          const stack = testStack({
            request: (t) => {
              const index = indexOf(t.request);
              handed.set(index, [...(handed.get(index) ?? []), t]);
              if (wanted.has(index)) answer(index);
            },
            cancel: () => {},
            ack: (request) => {
              const t = handed.get(indexOf(request))?.[0];
              if (t && t.request.method === 'INVITE') (t as InviteServerTransaction).acknowledged();
            },
          });
          const requests = items.map((item, i) =>
            requestOf(item.method, `r${i}`, { toTag: item.method === 'INVITE' ? undefined : 'us' }),
          );
          for (const step of schedule(items, keys, waits)) {
            if (step.kind === 'wait') stack.timers.advance(step.ms);
            else if (step.kind === 'deliver') stack.deliver(requests[step.index]);
            else if (step.kind === 'answer') answer(step.index);
            else {
              const item = items[step.index];
              if (item.method !== 'INVITE') continue;
              // The ACK of a refusal shares the INVITE's branch; the ACK of a 2xx has its own.
              const branch = item.final < 300 ? `r${step.index}ack` : `r${step.index}`;
              const ack = requestOf('ACK', branch, { toTag: 'us' });
              ack.headers = ack.headers.map(([n, v]) => [n, n === 'call-id' ? `call-r${step.index}` : v]);
              stack.deliver(ack);
            }
          }
          items.forEach((item, i) => {
            expect(handed.get(i)).toHaveLength(1);
            const finals = stack
              .responses()
              .filter((r) => r.status >= 200 && headerOf(r.headers, 'call-id') === `call-r${i}`)
              .map((r) => r.status);
            expect(new Set(finals)).toEqual(new Set([item.final]));
          });
          stack.timers.runAll();
          expect(stack.transactions.size).toBe(0);
          expect(stack.timers.size).toBe(0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('client side: each request of ours hears one final answer, however its answers arrive', () => {
    const outgoing = fc.record({
      method: fc.constantFrom(...METHODS),
      copies: fc.integer({ min: 1, max: 3 }),
      provisional: fc.boolean(),
      final: fc.constantFrom(200, 404, 486, 603),
    });
    fc.assert(
      fc.property(
        fc.array(outgoing, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 40 }),
        (items, keys, waits) => {
          const stack = testStack();
          const heard = items.map(() => [] as number[]);
          const timeouts = items.map(() => 0);
          const sent = items.map((item, i) => {
            const request = requestOf(item.method, `o${i}`);
            const user = {
              response: (r: SipResponse) => heard[i].push(r.status),
              timeout: () => timeouts[i]++,
            };
            return item.method === 'INVITE'
              ? stack.transactions.sendInvite(request, PEER, user).request
              : stack.transactions.sendRequest(request, PEER, user).request;
          });
          // Each "deliver" is one copy of the final answer, each "answer" a provisional one
          // (which may arrive after the final: reordered).
          for (const step of schedule(items, keys, waits)) {
            if (step.kind === 'wait') stack.timers.advance(step.ms);
            else if (step.kind === 'deliver')
              stack.deliver(answerTo(sent[step.index], items[step.index].final));
            else if (step.kind === 'answer' && items[step.index].provisional)
              stack.deliver(answerTo(sent[step.index], 180));
          }
          items.forEach((item, i) => {
            const finals = heard[i].filter((s) => s >= 200);
            expect(timeouts[i]).toBe(0);
            // A 2xx of an INVITE reaches its owner once per copy (each one needs its ACK);
            // any other final answer reaches it once.
            if (item.method === 'INVITE' && item.final < 300)
              expect(finals).toEqual(Array(item.copies).fill(item.final));
            else expect(finals).toEqual([item.final]);
          });
          stack.timers.runAll();
          expect(stack.transactions.size).toBe(0);
          expect(stack.timers.size).toBe(0);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
