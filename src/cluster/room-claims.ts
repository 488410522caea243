/**
 * Conference room names claimed by nodes in Redis: `<prefix>:room:<AccountSid>:<name>` holds
 * `<node> <RoomSid>` of the node running the room, and `<prefix>:rooms-of:<node>` the keys a
 * node holds, so that the names of a dead node can be let go. After Redis lost its data, the
 * rooms that outlived the loss claim their names again before any node may claim a new one, so
 * a name never ends up with two rooms: a caller of another node meanwhile waits, then joins the
 * room that kept its name.
 */
import type { Redis } from 'ioredis';
import type { RoomClaim } from '../engine/conference-peers.js';
import { membersKey, reclaimWindowKey } from './heartbeat.js';
import { runScript } from './redis-scripts.js';

const roomKey = (prefix: string, accountSid: string, name: string) => `${prefix}:room:${accountSid}:${name}`;
const nodeRoomsKey = (prefix: string, node: string) => `${prefix}:rooms-of:${node}`;

/**
 * Sets the claim unless another holds it (ARGV[2], when given, is a claim that may be replaced).
 * KEYS: room, the node's rooms, members, reclaim window. ARGV: claim, stale, node, 'new' for a
 * claim a fenced cluster node makes for a room it opens ('' otherwise), ms to wait when it is
 * not a member. A new claim waits -> {'wait', ms} while the reclaim window is open (the rooms
 * that outlived Redis's loss are claiming their names again) or while the node is not a member
 * (Redis lost the membership and the node's next beat, which opens the window, is on its way).
 */
const CLAIM = `if ARGV[4] == 'new' then
  local left = redis.call('PTTL', KEYS[4])
  if left > 0 then return {'wait', left} end
  if redis.call('HEXISTS', KEYS[3], ARGV[3]) == 0 then return {'wait', tonumber(ARGV[5])} end
end
local v = redis.call('GET', KEYS[1])
if (not v) or v == ARGV[2] then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SADD', KEYS[2], KEYS[1])
  return ARGV[1]
end
return v`;

/** Deletes the claim if it is still this one. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', KEYS[2], KEYS[1])
return 1`;

/** Deletes every claim the node still holds. */
const DROP = `local keys = redis.call('SMEMBERS', KEYS[1])
local dropped = 0
for _, k in ipairs(keys) do
  local v = redis.call('GET', k)
  if v and string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then
    redis.call('DEL', k)
    dropped = dropped + 1
  end
end
redis.call('DEL', KEYS[1])
return dropped`;

const encode = (c: RoomClaim) => `${c.node} ${c.sid}`;
const decode = (v: string): RoomClaim => {
  const space = v.indexOf(' ');
  return { node: v.slice(0, space), sid: v.slice(space + 1) };
};

/**
 * How a claim is made: `again` re-asserts the claim of a room that outlived Redis's loss; `new`,
 * with the node's TTL, claims a name for a room the node opens, waiting out the reclaim window
 * (see {@link reclaimWindowKey}); `free` claims at once (a node without heartbeats, e.g. tests
 * of two engines in one process).
 */
export type ClaimMode = { kind: 'again' } | { kind: 'new'; ttlMs: number } | { kind: 'free' };

/** Claims the name for `claim` (see `ConferencePeers.claimRoom`); the claim holding it now. */
export async function claimRoom(
  redis: Redis,
  prefix: string,
  accountSid: string,
  name: string,
  claim: RoomClaim,
  stale?: RoomClaim,
  mode: ClaimMode = { kind: 'free' },
): Promise<RoomClaim> {
  const keys = [
    roomKey(prefix, accountSid, name),
    nodeRoomsKey(prefix, claim.node),
    membersKey(prefix),
    reclaimWindowKey(prefix),
  ];
  const beat = mode.kind === 'new' ? Math.max(1, Math.floor(mode.ttlMs / 3)) : 0;
  const args = [
    encode(claim),
    stale ? encode(stale) : '',
    claim.node,
    mode.kind === 'new' ? 'new' : '',
    beat,
  ];
  for (;;) {
    const held = (await runScript(redis, CLAIM, keys, args)) as string | [string, number];
    if (typeof held === 'string') return decode(held);
    await new Promise((resolve) => setTimeout(resolve, Math.min(held[1], beat)));
  }
}

/** Lets the name go if `claim` still holds it. */
export async function releaseRoom(
  redis: Redis,
  prefix: string,
  accountSid: string,
  name: string,
  claim: RoomClaim,
): Promise<void> {
  await runScript(
    redis,
    RELEASE,
    [roomKey(prefix, accountSid, name), nodeRoomsKey(prefix, claim.node)],
    [encode(claim)],
  );
}

/** Lets go of every name `node` holds (it died, or restarts); how many it held. */
export async function dropRoomClaims(redis: Redis, prefix: string, node: string): Promise<number> {
  return (await runScript(redis, DROP, [nodeRoomsKey(prefix, node)], [node])) as number;
}
