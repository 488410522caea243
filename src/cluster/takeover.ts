/**
 * Taking over a dead node: closing its live calls and removing its queue members, once, by one
 * survivor. A per-node lock in Redis (`SET NX PX`) makes it exclusive; the node itself takes the
 * same lock when it restarts, so its own recovery and a survivor's takeover never both close a
 * call.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CallRecord } from '../engine/records.js';
import type { QueueStore } from '../queue/store.js';
import type { PostgresStore } from '../store/postgres/open.js';
import { closeInterruptedCalls } from '../store/recover.js';
import { randomSid } from '../store/sid.js';
import { removeQueueMembers } from './ghost-members.js';
import { membersKey, nodeKey, parseNodeValue } from './heartbeat.js';
import type { NodeLease } from './lease.js';
import { dropRoomClaims } from './room-claims.js';

/** Key of the lock held while `node`'s calls are closed (by a survivor, or by itself on restart). */
export const takeoverLockKey = (prefix: string, node: string) => `${prefix}:takeover:${node}`;

/** Channel on which the node that took a dead node over publishes its name. */
export const deathChannel = (prefix: string) => `${prefix}:node-dead`;

/** Deletes the lock only if it is still ours (it may have expired and been taken since). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** What taking a node over needs. */
export interface TakeoverContext {
  redis: Redis;
  prefix: string;
  /** The node doing it. */
  self: string;
  store: PostgresStore;
  /** The shared queues, when the cluster has them. */
  queues?: QueueStore;
  /** How long a lock holder may take before another may try (its lock expires). */
  lockMs: number;
  /** This node's own lease: a node whose lease lapsed takes nobody over. */
  lease?: NodeLease;
  /** Wall clock of the closing records. Default `Date.now`. */
  now?: () => number;
  /** Told of each takeover this node did, and of each that failed (for the log). */
  told?: (node: string, outcome: TakeoverReport) => void;
}

/** What {@link TakeoverContext.told} hears. */
export type TakeoverReport =
  /** `closed`: the calls' closing records (their final status callbacks are this node's to send). */
  | { status: 'done'; calls: string[]; members: number; closed: readonly CallRecord[] }
  | { status: 'failed'; error: unknown };

/**
 * Runs `work` holding `node`'s takeover lock; undefined when another holds it. With `waitMs`,
 * retries every 50 ms for that long first (a holder that died lets go within `lockMs`).
 */
export async function withTakeoverLock<T>(
  context: Pick<TakeoverContext, 'redis' | 'prefix' | 'lockMs'>,
  node: string,
  work: () => Promise<T>,
  waitMs = 0,
): Promise<T | undefined> {
  const { redis } = context;
  const key = takeoverLockKey(context.prefix, node);
  const token = randomBytes(8).toString('hex');
  const until = Date.now() + waitMs;
  while ((await redis.set(key, token, 'PX', context.lockMs, 'NX')) !== 'OK') {
    if (Date.now() >= until) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
}

/** Outcome of {@link takeOver}. */
export type TakeoverOutcome =
  /** Its calls were closed and its members removed by this node. */
  | { status: 'done'; calls: string[]; members: number }
  /** Its heartbeat is back, or it renewed its epoch first: it restarted or came back, and goes on. */
  | { status: 'alive' }
  /** Another node holds the lock: it is being taken over. */
  | { status: 'busy' };

/** Options of {@link takeOver}. */
export interface TakeoverOptions {
  /**
   * `dead` is no member (Redis lost the members) but owns live calls, and its key has been seen
   * gone for a TTL at least: it is fenced off from the epoch the database gives it. Without
   * this, a node that is no member is not taken over (it was already, or it never joined).
   */
  orphan?: boolean;
}

/**
 * Takes `dead` over, if nobody else is and its heartbeat has really expired: fences it off
 * first (its epoch moves on in the database, so no write of its own commits after that; if it
 * renewed its epoch meanwhile, it is alive and nothing happens), then closes its live
 * calls (answered -> `completed`, others `failed`, each with notification 12401, as a restarted
 * node closes its own) and ends the conference rooms it ran (freeing their names), removes
 * them from the queues, drops the node from the members and
 * publishes its death on {@link deathChannel}.
 */
export async function takeOver(
  context: TakeoverContext,
  dead: string,
  options: TakeoverOptions = {},
): Promise<TakeoverOutcome> {
  const { redis, prefix, store, self } = context;
  const outcome = await withTakeoverLock(context, dead, async (): Promise<TakeoverOutcome> => {
    if ((await redis.exists(nodeKey(prefix, dead))) === 1) return { status: 'alive' };
    if (store.lease) {
      // Fenced off first, from the epoch it joined with: it renewed (or restarted) meanwhile
      // if that fails, and goes on.
      const member = await redis.hget(membersKey(prefix), dead);
      if (member === null && !options.orphan) return { status: 'done', calls: [], members: 0 };
      const epoch =
        (member === null ? undefined : parseNodeValue(member).epoch) ?? (await store.lease.epochOf(dead));
      if (epoch !== undefined && !(await store.lease.supersede(dead, epoch))) return { status: 'alive' };
    }
    const closed = await closeInterruptedCalls(
      store,
      (context.now ?? Date.now)(),
      randomSid,
      await store.liveCallsOf(dead),
      (call, done) =>
        `rcml.call-interrupted: Call ${call.sid} was ${call.status} when node ${dead} stopped answering; marked ${done.status} by node ${self}`,
      await store.liveRoomsOf(dead),
    );
    const calls = closed.map((c) => c.sid);
    const members = context.queues ? await removeQueueMembers(redis, prefix, context.queues, calls) : 0;
    // Its rooms ended with its calls: their names are free for the survivors.
    const rooms = await dropRoomClaims(redis, prefix, dead);
    // Told once: by the node that found it a member, or that had calls of it to close.
    const wasMember = (await redis.hdel(membersKey(prefix), dead)) === 1;
    if (wasMember || calls.length > 0 || rooms > 0) await redis.publish(deathChannel(prefix), dead);
    context.told?.(dead, { status: 'done', calls, members, closed });
    return { status: 'done', calls, members };
  });
  return outcome ?? { status: 'busy' };
}

/**
 * Makes sure the calls of `node`, whose heartbeat has expired, are closed before a request that
 * needs one is answered: takes it over, or waits (at most `lockMs` and a little) for the node
 * that is doing it. `alive` when the node came back meanwhile.
 */
export async function settleDeadNode(context: TakeoverContext, node: string): Promise<'closed' | 'alive'> {
  const until = Date.now() + context.lockMs + 1000;
  for (;;) {
    const outcome = await takeOver(context, node);
    if (outcome.status === 'alive') return 'alive';
    if (outcome.status === 'done') return 'closed';
    // Busy: done once the holder has dropped it from the members.
    const [member, alive] = await context.redis
      .multi()
      .hexists(membersKey(context.prefix), node)
      .exists(nodeKey(context.prefix, node))
      .exec()
      .then((r) => (r ?? []).map(([, v]) => v));
    if (alive === 1) return 'alive';
    if (member === 0 || Date.now() >= until) return 'closed';
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
