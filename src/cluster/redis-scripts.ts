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
 * The body of an arrival, as a Lua function of plain values (no table or closure is made per
 * arrival): the queue's JSON `raw` (read by the caller, which checks the queue exists), the
 * queue's keys (own line, other line, seq, members, served) and the arrival (callSid, member
 * JSON, now, other side's name).
 * -> {'already-waiting'} | {'matched', partner JSON, queue JSON, other side's size}
 *  | {'queue-full', queue JSON, size} | {'waiting', queue JSON, position}
 * The partner's wait is computed from its `enqueuedAt`, read out of its JSON with a pattern
 * rather than decoding it whole (the member JSON is written by the store: a number there). A
 * call already on its own side is found by `ZADD NX` itself (or, in a full queue, by ZSCORE):
 * one command fewer for every arrival that waits.
 */
const ARRIVAL_BODY = `
local function arrival(raw, ownLine, otherLine, seq, members, served, callSid, json, now, other)
  if redis.call('ZSCORE', otherLine, callSid) then return {'already-waiting'} end
  local head = redis.call('ZPOPMIN', otherLine)
  if #head > 0 then
    local m = redis.call('HGET', members, head[1])
    redis.call('HDEL', members, head[1])
    local at = tonumber(string.match(m, '"enqueuedAt":(%-?[%d.eE+-]+)')) or cjson.decode(m).enqueuedAt
    local wait = tonumber(now) - at
    if wait < 0 then wait = 0 end
    redis.call('HINCRBY', served, other .. ':count', 1)
    redis.call('HINCRBY', served, other .. ':wait', wait)
    return {'matched', m, raw, redis.call('ZCARD', otherLine)}
  end
  local size = redis.call('ZCARD', ownLine)
  local max = tonumber(string.match(raw, '"maxSize":(%d+)')) or cjson.decode(raw).maxSize
  if size >= max then
    if redis.call('ZSCORE', ownLine, callSid) then return redis.error_reply('ALREADY_WAITING') end
    return {'queue-full', raw, size}
  end
  if redis.call('ZADD', ownLine, 'NX', redis.call('INCR', seq), callSid) == 0 then
    return redis.error_reply('ALREADY_WAITING')
  end
  redis.call('HSET', members, callSid, json)
  return {'waiting', raw, size + 1}
end`;

/**
 * The whole arrival, atomically. KEYS: queue, own line, other line, seq, members, served.
 * ARGV: callSid, member JSON, now, other side's name. Replies as {@link ARRIVAL_BODY}.
 */
export const ARRIVE = `${ARRIVAL_BODY}
local raw = redis.call('GET', KEYS[1])
if not raw then return redis.error_reply('UNKNOWN_QUEUE') end
return arrival(raw, KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`;

/**
 * An arrival at a queue named in an account, the queue looked up in the same step, as a Lua
 * function: (names key, name, the queue's sid if the node knows it or '', callSid, member JSON,
 * now, own side, prefix of keys with its colon) -> {'no-queue'} when the account
 * has no queue of that name (the caller creates it, then arrives by sid), else as
 * {@link ARRIVAL_BODY} with the queue's sid appended to 'already-waiting'. A queue keeps its
 * name and is never removed, so a sid the node learnt from an earlier reply for that name saves
 * the lookup; one whose queue is gone (the data was flushed) is looked up by name as usual.
 */
const NAMED_ARRIVAL = `${ARRIVAL_BODY}
local function named(names, name, known, callSid, json, now, own, P)
  local other = own == 'enqueued' and 'dialer' or 'enqueued'
  local sid, raw = known, nil
  if sid ~= '' then raw = redis.call('GET', P .. 'queue:' .. sid) end
  if not raw then
    sid = redis.call('HGET', names, name)
    if not sid then return {'no-queue'} end
    raw = redis.call('GET', P .. 'queue:' .. sid)
    if not raw then return redis.error_reply('UNKNOWN_QUEUE') end
  end
  local line = P .. 'line:' .. sid .. ':'
  local out = arrival(raw, line .. own, line .. other, P .. 'seq:' .. sid, P .. 'member:' .. sid,
    P .. 'served:' .. sid, callSid, json, now, other)
  if out[1] == 'already-waiting' then out[2] = sid end
  return out
end`;

/**
 * Arrivals by name, one or several, one after the other in one round trip (as many scripts back
 * to back would): KEYS: each arrival's names key. ARGV: prefix of keys, then six per arrival
 * (name, known sid or '', callSid, member JSON, now, own side). -> one reply per arrival, as
 * {@link NAMED_ARRIVAL}'s, an error as {'error', message} (it fails that arrival alone).
 */
export const ARRIVE_NAMED_MANY = `${NAMED_ARRIVAL}
local out, P = {}, ARGV[1]
for i = 1, #KEYS do
  local b = 1 + (i - 1) * 6
  local r = named(KEYS[i], ARGV[b + 1], ARGV[b + 2], ARGV[b + 3], ARGV[b + 4], ARGV[b + 5], ARGV[b + 6], P)
  if r.err then r = {'error', r.err} end
  out[i] = r
end
return out`;

/** Every script of the queue store (loaded when a store opens on a connection). */
export const SCRIPTS = [
  ENSURE_QUEUE,
  FIND_QUEUE,
  SET_MAX_SIZE,
  ENQUEUE,
  DEQUEUE_HEAD,
  REMOVE,
  ARRIVE,
  ARRIVE_NAMED_MANY,
];

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
