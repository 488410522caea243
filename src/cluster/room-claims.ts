/**
 * Conference room names claimed by nodes in Redis: `<prefix>:room:<AccountSid>:<name>` holds
 * `<node> <RoomSid>` of the node running the room, and `<prefix>:rooms-of:<node>` the keys a
 * node holds, so that the names of a dead node can be let go.
 */
import type { Redis } from 'ioredis';
import type { RoomClaim } from '../engine/conference-peers.js';
import { runScript } from './redis-scripts.js';

const roomKey = (prefix: string, accountSid: string, name: string) => `${prefix}:room:${accountSid}:${name}`;
const nodeRoomsKey = (prefix: string, node: string) => `${prefix}:rooms-of:${node}`;

/** Sets the claim unless another holds it (ARGV[2], when given, is a claim that may be replaced). */
const CLAIM = `local v = redis.call('GET', KEYS[1])
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

/** Claims the name for `claim` (see `ConferencePeers.claimRoom`); the claim holding it now. */
export async function claimRoom(
  redis: Redis,
  prefix: string,
  accountSid: string,
  name: string,
  claim: RoomClaim,
  stale?: RoomClaim,
): Promise<RoomClaim> {
  const held = (await runScript(
    redis,
    CLAIM,
    [roomKey(prefix, accountSid, name), nodeRoomsKey(prefix, claim.node)],
    [encode(claim), stale ? encode(stale) : ''],
  )) as string;
  return decode(held);
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
