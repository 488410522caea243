/** The shared backends of a node of a cluster: records in PostgreSQL, queues and liveness in Redis. */
import { Redis } from 'ioredis';
import type { QueueStore } from '../queue/store.js';
import { openPostgresStore, type PostgresStore } from '../store/postgres/open.js';
import { startHeartbeat } from './heartbeat.js';
import { RedisQueuePeers } from './redis-queue-peers.js';
import { RedisQueueStore } from './redis-queue-store.js';

/** Options of {@link openClusterBackends}. */
export interface ClusterBackendOptions {
  /** PostgreSQL connection string: where every node keeps its records. */
  databaseUrl: string;
  /** Redis URL: queues and node liveness. Without it queues stay in this process. */
  redisUrl?: string;
  /** This node's name, unique in the cluster. */
  nodeId: string;
  /** Prefix of every Redis key (one per platform sharing a Redis). Default `rcml`. */
  redisPrefix?: string;
}

/** What a node runs on, and how to let go of it. */
export interface ClusterBackends {
  store: PostgresStore;
  /** The shared queue store, when Redis is given. */
  queueStore?: QueueStore;
  /** How this node's queues bridge calls matched with calls of other nodes, when Redis is given. */
  queuePeers?: RedisQueuePeers;
  /** Readiness probes of the shared backends, by name (`postgres`, and `redis` when given). */
  checks: Record<string, () => Promise<void>>;
  /** Stops the heartbeat and closes Redis (the store is closed by its server). */
  close(): Promise<void>;
}

const NODE_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export async function openClusterBackends(options: ClusterBackendOptions): Promise<ClusterBackends> {
  if (!NODE_ID.test(options.nodeId)) {
    throw new Error(
      `node id must be 1-64 letters, digits, '.', '_' or '-' (got ${JSON.stringify(options.nodeId)})`,
    );
  }
  const store = await openPostgresStore({ url: options.databaseUrl, nodeId: options.nodeId });
  const postgres = async () => {
    await store.pool.query('SELECT 1');
  };
  if (!options.redisUrl) return { store, checks: { postgres }, close: async () => {} };
  const prefix = options.redisPrefix ?? 'rcml';
  const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    await store.close();
    throw new Error(
      `cannot reach Redis at ${options.redisUrl}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const heartbeat = await startHeartbeat(redis, prefix, options.nodeId);
  const queuePeers = await RedisQueuePeers.start(redis, prefix, options.nodeId);
  return {
    store,
    queueStore: new RedisQueueStore(redis, prefix, options.nodeId),
    queuePeers,
    checks: {
      postgres,
      redis: async () => {
        await redis.ping();
      },
    },
    close: async () => {
      await queuePeers.close();
      await heartbeat.stop();
      redis.disconnect();
    },
  };
}
