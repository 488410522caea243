/**
 * Several engines in one process as the nodes of a cluster: one Redis queue store prefix, each
 * with its own node id, connection and cross-node signalling (queue matches and conference
 * rooms), like `rcml serve` nodes.
 */
import { Redis } from 'ioredis';
import { RedisQueuePeers } from '../../src/cluster/redis-queue-peers.js';
import { RedisQueueStore } from '../../src/cluster/redis-queue-store.js';
import { type App, type Harness, harness } from '../engine/harness.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

export const ACCOUNT = `AC${'b'.repeat(32)}`;

export interface PeerNode {
  id: string;
  h: Harness;
  peers: RedisQueuePeers;
  redis: Redis;
}

export interface PeerCluster {
  nodes: PeerNode[];
  /** The Redis key prefix of this cluster. */
  prefix: string;
  /** Every node has read every signal sent so far, and its engine has run `seconds` further. */
  tick(seconds?: number): Promise<void>;
  close(): Promise<void>;
}

/** `apps[i]` are node i's documents; every node gets its own seed so their sids differ. */
export async function peerCluster(
  apps: Array<Record<string, App>>,
  prefix = uniqueName('x'),
): Promise<PeerCluster> {
  const full = `${REDIS_PREFIX}${prefix}`;
  const nodes: PeerNode[] = [];
  for (const [i, nodeApps] of apps.entries()) {
    const id = `n${i + 1}`;
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const peers = await RedisQueuePeers.start(redis, full, id);
    const h = harness(nodeApps, {
      seed: 100 + i,
      accountSid: ACCOUNT,
      instanceId: id,
      queues: { store: new RedisQueueStore(redis, full, id), peers },
      conferences: { peers },
    });
    nodes.push({ id, h, peers, redis });
  }
  const flushAll = async () => {
    for (const n of nodes) await n.peers.flush();
  };
  return {
    nodes,
    prefix: full,
    async tick(seconds = 0) {
      // Signals answer signals (offer, accept, ready): a few rounds let every exchange finish.
      for (let round = 0; round < 3; round++) {
        await flushAll();
        for (const n of nodes) await n.h.engine.advance(round === 0 ? seconds : 0);
      }
    },
    async close() {
      for (const n of nodes) {
        await n.peers.close();
        n.redis.disconnect();
      }
    },
  };
}
