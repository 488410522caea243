import type { Redis } from 'ioredis';
import type { NodeLease } from './lease.js';
import { runScript } from './redis-scripts.js';

/** How long a node counts as alive after its last beat, by default. */
export const NODE_TTL_MS = 10_000;

/**
 * The Redis key whose presence says `node` is alive; its value is `<epoch> <url>`: the node's
 * fencing token (see `store/postgres/leases.ts`) and its advertised URL.
 */
export const nodeKey = (prefix: string, node: string) => `${prefix}:node:${node}`;

/**
 * Hash of the nodes that joined, node -> `<epoch> <url>`, re-written by every beat (so a Redis
 * that lost it has it again within a beat). A node in it whose key has expired died without a
 * clean stop: a survivor takes its calls over and then removes it (see `takeover.ts`).
 */
export const membersKey = (prefix: string) => `${prefix}:nodes`;

/**
 * Present for a TTL after the first beat that found Redis had lost the node keys and the
 * membership (restarted empty): while it is, every node that ran conference rooms claims their
 * names again (a beat reaches each within a third of the TTL), and no node claims a new name
 * (see `room-claims.ts`), so the rooms that outlived the loss keep their names.
 */
export const reclaimWindowKey = (prefix: string) => `${prefix}:reclaiming`;

/** The epoch and URL of a node key's or member's value (`<epoch> <url>`). */
export function parseNodeValue(value: string): { epoch?: number; url: string } {
  const space = value.indexOf(' ');
  const head = space < 0 ? value : value.slice(0, space);
  if (!/^\d+$/.test(head)) return { url: value };
  return { epoch: Number(head), url: space < 0 ? '' : value.slice(space + 1) };
}

/** The nodes alive now (their keys have not expired). */
export async function liveNodes(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', nodeKey(prefix, '*'), 'COUNT', 100);
    cursor = next;
    for (const k of keys) found.push(k.slice(nodeKey(prefix, '').length));
  } while (cursor !== '0');
  return found.sort();
}

/**
 * The URL `node` advertises for forwarded requests: '' while it starts (not listening yet),
 * undefined when its key has expired (it stopped or died).
 */
export async function advertisedUrl(redis: Redis, prefix: string, node: string): Promise<string | undefined> {
  const value = await redis.get(nodeKey(prefix, node));
  return value === null ? undefined : parseNodeValue(value).url;
}

/**
 * One beat. KEYS: node key, members, reclaim window. ARGV: value, TTL ms, node, '1' when the node has just taken
 * its epoch from the database (it may create the key). -> -1 a later epoch holds the key (this
 * run was superseded); 1 renewed; 2 created; 0 the key expired (its membership is still there)
 * and 3 the key and the membership are gone (Redis lost them): either way the node renews its
 * epoch in the database before it creates the key again, so that a survivor that saw the key
 * gone and the node itself cannot both go on (see `takeover.ts`); 3 also opens the reclaim
 * window (see {@link reclaimWindowKey}) if no node has yet.
 */
const BEAT = `
local function epoch(v) return tonumber(string.match(v, '^(%d+)')) or 0 end
local v = redis.call('GET', KEYS[1])
if v then
  if epoch(v) > epoch(ARGV[1]) then return -1 end
elseif ARGV[4] ~= '1' then
  if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 then return 0 end
  redis.call('SET', KEYS[3], '1', 'PX', ARGV[2], 'NX')
  return 3
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
if v then return 1 end
return 2`;

/** A clean stop: the key and the membership go, if they are still this epoch's. */
const LEAVE = `
local function epoch(v) return tonumber(string.match(v or '', '^(%d+)')) or 0 end
if epoch(redis.call('GET', KEYS[1])) == tonumber(ARGV[1]) then redis.call('DEL', KEYS[1]) end
if epoch(redis.call('HGET', KEYS[2], ARGV[2])) == tonumber(ARGV[1]) then redis.call('HDEL', KEYS[2], ARGV[2]) end
return 0`;

/** What a heartbeat needs besides Redis. */
export interface HeartbeatOptions {
  prefix: string;
  node: string;
  ttlMs: number;
  /** The node's lease: confirmed by each beat Redis took, fenced when superseded. */
  lease: NodeLease;
  /** The epoch the node holds now. */
  epoch(): number;
  /**
   * Takes a new epoch if the node still holds its own (the database decides: see `leases.ts`):
   * false when a survivor took the node over meanwhile.
   */
  renew(): Promise<boolean>;
  /** Redis had lost the node's key (restarted empty): what the node keeps there is re-made. */
  onLost?(): void;
}

/** A running heartbeat. */
export interface Heartbeat {
  /** Sets the URL other nodes forward live-call requests to (beaten from now on). */
  advertise(url: string): Promise<void>;
  /** Beats once now (the timer beats every third of the TTL). */
  beat(): Promise<void>;
  /** Stops beating and removes the key and the membership, so a clean stop is seen at once. */
  stop(): Promise<void>;
}

/**
 * Announces the node alive: its key set with a TTL of `ttlMs` and its membership, renewed every
 * third of it on the wall clock (the timer does not keep the process alive), so a node misses
 * two beats before it is taken for dead. Each beat Redis confirms renews the node's lease. A
 * beat finding a later epoch in the key fences the node off; one finding the key gone (it
 * expired while the node was frozen or cut off from Redis, or Redis lost it) renews the epoch
 * in the database first, which fails, fencing the node off, if a survivor took it over.
 * The TTL must exceed the longest stall of the node's event loop.
 */
export async function startHeartbeat(redis: Redis, options: HeartbeatOptions): Promise<Heartbeat> {
  const { prefix, node, ttlMs, lease } = options;
  const keys = [nodeKey(prefix, node), membersKey(prefix), reclaimWindowKey(prefix)];
  let url = '';
  let stopped = false;
  const value = () => `${options.epoch()} ${url}`;
  const send = async (mayCreate: boolean) => {
    const sentAt = lease.now();
    const reply = await runScript(redis, BEAT, keys, [value(), ttlMs, node, mayCreate ? '1' : '0']);
    return { reply, sentAt };
  };
  let running: Promise<void> | undefined;
  // The first beat follows the claim of a new epoch: it may create the key.
  let claimed = true;
  const beatOnce = async () => {
    if (stopped || lease.fenced !== undefined) return;
    let { reply, sentAt } = await send(claimed);
    claimed = false;
    const lost = reply === 3;
    if (reply === 0 || reply === 3) {
      if (!(await options.renew())) {
        lease.fence(`node ${node} was declared dead by the cluster: taken over while it was not heard from`);
        return;
      }
      ({ reply, sentAt } = await send(true));
    }
    if (reply === -1) {
      lease.fence(`node ${node} was started again elsewhere: a later epoch holds its key`);
      return;
    }
    lease.confirmed(sentAt);
    if (lost) options.onLost?.();
  };
  // One beat at a time: a slow Redis must not pile beats up.
  const beat = () => {
    running ??= beatOnce().finally(() => {
      running = undefined;
    });
    return running;
  };
  await beat();
  const timer = setInterval(() => void beat().catch(() => undefined), Math.max(1, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    advertise: async (advertised) => {
      url = advertised;
      await running;
      await beat();
    },
    beat,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (lease.fenced !== undefined) return;
      await runScript(redis, LEAVE, keys.slice(0, 2), [options.epoch(), node]).catch(() => undefined);
    },
  };
}
