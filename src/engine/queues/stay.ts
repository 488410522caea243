import type { LeaveReason, QueueInfo } from '../../queue/index.js';
import type { PairEnd } from './pairing.js';
import type { QueueParty } from './party.js';
import type { Arrival, QueueService } from './service.js';
import { waitLoop } from './wait-loop.js';

/** How a call's stay in a queue ended. */
export type Stay =
  | { kind: 'queue-full'; queue: QueueInfo }
  /** Left unmatched: Leave, a Hangup in the wait document, timeout, hang-up or redirect. */
  | { kind: 'left'; queue: QueueInfo; reason: LeaveReason; waitMs: number }
  /**
   * Matched; `end` tells whether the two were connected and who left first, `waited` whether
   * this call was the one waiting when its partner arrived.
   */
  | {
      kind: 'matched';
      queue: QueueInfo;
      waitMs: number;
      partnerCallSid: string;
      end: PairEnd;
      waited: boolean;
    };

/**
 * Takes a call from its arrival to the end of its stay: waits (wait loop), runs its join
 * documents once matched and stays connected until the bridge ends. A match with a call that
 * was already gone is retried: the call arrives again.
 */
export async function stayInQueue(svc: QueueService, party: QueueParty, first: Arrival): Promise<Stay> {
  const ctx = party.ctx;
  let arrival = first;
  for (;;) {
    switch (arrival.status) {
      case 'queue-full':
        return { kind: 'queue-full', queue: arrival.queue };
      case 'retry':
        if (ctx.signal.aborted) return { kind: 'left', queue: arrival.queue, reason: 'hangup', waitMs: 0 };
        arrival = await svc.arrive(party);
        continue;
      case 'paired': {
        const { pairing } = arrival;
        const end = await pairing.take(party.side);
        const partnerSide = party.side === 'enqueued' ? 'dialer' : 'enqueued';
        if (!end.bridged && end.endedBy === partnerSide && !ctx.signal.aborted) {
          arrival = await svc.arrive(party);
          continue;
        }
        return {
          kind: 'matched',
          queue: arrival.queue,
          waitMs: pairing.waitMs[party.side],
          partnerCallSid: pairing.sid(partnerSide),
          end,
          waited: pairing.waitingSide === party.side,
        };
      }
      case 'waiting': {
        const { waiter } = arrival;
        const end = await waitLoop(svc, waiter);
        if (end.kind === 'paired') {
          arrival = {
            status: 'paired',
            queue: arrival.queue,
            pairing: end.pairing,
            waitMs: end.pairing.waitMs[party.side],
          };
          continue;
        }
        const reason: LeaveReason =
          end.kind === 'aborted' ? (ctx.services.ended ? 'hangup' : 'redirected') : end.kind;
        const left = await waiter.depart(reason);
        if (left) return { kind: 'left', queue: arrival.queue, reason, waitMs: left.waitMs };
        // Taken while leaving: the match stands unless the call itself is gone (its partner
        // then sees it leave and goes on).
        if (end.kind === 'aborted' || end.kind === 'hangup') {
          return { kind: 'left', queue: arrival.queue, reason, waitMs: ctx.now() - waiter.since };
        }
        const pairing = await waiter.paired;
        arrival = { status: 'paired', queue: arrival.queue, pairing, waitMs: pairing.waitMs[party.side] };
        continue;
      }
    }
  }
}
