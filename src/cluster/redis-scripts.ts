/**
 * Lua scripts of the Redis queue store. Each runs atomically on the server in one round trip,
 * which is why scripts rather than MULTI/WATCH: an arrival reads the other side's head, the
 * queue's size limit and its own side's size before it writes, and under WATCH every node
 * contending for a hot queue would retry those reads (three or more round trips each, unbounded
 * under contention). A script never retries and never interleaves with another.
 *
 * Keys (`P` = the store's prefix): `P:queue:<sid>` the queue's JSON; `P:names:<account>` hash
 * name -> sid; `P:order:<account>` sorted set of sids by creation; per side `P:line:<sid>:<side>`
 * a sorted set of call sids scored by arrival number (ZRANK gives the position, ZPOPMIN the head:
 * O(log n)), `P:seq:<sid>` the arrival counter, `P:member:<sid>` hash callSid -> member JSON,
 * `P:served:<sid>` hash of served counts and wait totals.
 */

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * KEYS: queue, names, order. ARGV: queue JSON, name, sid, creation order, prefix of queue keys.
 * -> the queue's JSON (the existing one of that name, if any).
 */
export const ENSURE_QUEUE = `
local existing = redis.call('HGET', KEYS[2], ARGV[2])
if existing then return redis.call('GET', ARGV[5] .. existing) end
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('SID_TAKEN') end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
return ARGV[1]`;

/** KEYS: names. ARGV: name, prefix of queue keys. -> the queue's JSON, or nil (one round trip). */
export const FIND_QUEUE = `
local sid = redis.call('HGET', KEYS[1], ARGV[1])
if not sid then return nil end
return redis.call('GET', ARGV[2] .. sid)`;

/** KEYS: queue. ARGV: maxSize. -> the updated JSON, or nil. */
export const SET_MAX_SIZE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return nil end
local q = cjson.decode(raw)
q.maxSize = tonumber(ARGV[1])
local out = cjson.encode(q)
redis.call('SET', KEYS[1], out)
return out`;

/** KEYS: queue, line, seq, members. ARGV: callSid, member JSON. -> position, or error. */
export const ENQUEUE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('UNKNOWN_QUEUE') end
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return redis.error_reply('ALREADY_WAITING') end
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
return redis.call('ZCARD', KEYS[2])`;

/** KEYS: queue, line, members. -> member JSON of the head, removed, or nil. */
export const DEQUEUE_HEAD = `
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('UNKNOWN_QUEUE') end
local head = redis.call('ZPOPMIN', KEYS[2])
if #head == 0 then return nil end
local m = redis.call('HGET', KEYS[3], head[1])
redis.call('HDEL', KEYS[3], head[1])
return m`;

/** KEYS: queue, line, members. ARGV: callSid. -> {member JSON, position}, or nil. */
export const REMOVE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('UNKNOWN_QUEUE') end
local rank = redis.call('ZRANK', KEYS[2], ARGV[1])
if not rank then return nil end
redis.call('ZREM', KEYS[2], ARGV[1])
local m = redis.call('HGET', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return {m, rank + 1}`;

/**
 * The whole arrival, atomically. KEYS: queue, own line, other line, seq, members, served.
 * ARGV: callSid, member JSON, now, other side's name.
 * -> {'already-waiting'} | {'matched', partner JSON, queue JSON, other side's size}
 *  | {'queue-full', queue JSON, size} | {'waiting', queue JSON, position}
 */
export const ARRIVE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return redis.error_reply('UNKNOWN_QUEUE') end
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return {'already-waiting'} end
local head = redis.call('ZPOPMIN', KEYS[3])
if #head > 0 then
  local m = redis.call('HGET', KEYS[5], head[1])
  redis.call('HDEL', KEYS[5], head[1])
  local wait = tonumber(ARGV[3]) - cjson.decode(m).enqueuedAt
  if wait < 0 then wait = 0 end
  redis.call('HINCRBY', KEYS[6], ARGV[4] .. ':count', 1)
  redis.call('HINCRBY', KEYS[6], ARGV[4] .. ':wait', wait)
  return {'matched', m, raw, redis.call('ZCARD', KEYS[3])}
end
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return redis.error_reply('ALREADY_WAITING') end
local size = redis.call('ZCARD', KEYS[2])
if size >= cjson.decode(raw).maxSize then return {'queue-full', raw, size} end
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), ARGV[1])
redis.call('HSET', KEYS[5], ARGV[1], ARGV[2])
return {'waiting', raw, size + 1}`;

/** Every script of the queue store (loaded when a store opens on a connection). */
export const SCRIPTS = [ENSURE_QUEUE, FIND_QUEUE, SET_MAX_SIZE, ENQUEUE, DEQUEUE_HEAD, REMOVE, ARRIVE];

const shas = new Map<string, string>();

/** The hash Redis names a script by (SHA-1 of its text), for EVALSHA without a round trip to learn it. */
export function shaOf(lua: string): string {
  let sha = shas.get(lua);
  if (!sha) {
    sha = createHash('sha1').update(lua).digest('hex');
    shas.set(lua, sha);
  }
  return sha;
}

/** A script's reply. */
export type Reply = string | number | null | Reply[];

/**
 * Runs a script by its hash (one short command, sent at once), loading it when the server does
 * not have it (first use, a restart, a flush).
 */
export async function runScript(
  redis: Redis,
  lua: string,
  keys: string[],
  args: Array<string | number>,
): Promise<Reply> {
  const sha = shaOf(lua);
  try {
    return (await redis.evalsha(sha, keys.length, ...keys, ...args)) as Reply;
  } catch (err) {
    if (!(err instanceof Error && err.message.includes('NOSCRIPT'))) throw err;
  }
  await redis.script('LOAD', lua);
  return (await redis.evalsha(sha, keys.length, ...keys, ...args)) as Reply;
}
