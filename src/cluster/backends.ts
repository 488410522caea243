/** The shared backends of a node of a cluster: records in PostgreSQL, queues and liveness in Redis. */
import { Redis } from 'ioredis';
import type { QueueStore } from '../queue/store.js';
import { localChanges, type SharedChanges } from '../store/changes.js';
import { openPostgresStore, type PostgresStore, type StoreLease } from '../store/postgres/open.js';
import { RedisChanges } from './changes.js';
import { watchForwardSecret } from './forward-secret.js';
import { removeQueueMembers } from './ghost-members.js';
import { advertisedUrl, type Heartbeat, NODE_TTL_MS, startHeartbeat } from './heartbeat.js';
import { NodeLease } from './lease.js';
import { subscribeDeaths, watchNodes } from './node-watch.js';
import { RedisConsoleRelay } from './redis-console-relay.js';
import { RedisQueuePeers } from './redis-queue-peers.js';
import { RedisQueueStore } from './redis-queue-store.js';
import { dropRoomClaims } from './room-claims.js';
import {
  deathChannel,
  settleDeadNode,
  type TakeoverContext,
  type TakeoverReport,
  withTakeoverLock,
} from './takeover.js';

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
  /**
   * How long a node counts as alive after its last heartbeat (beats every third of it), in ms.
   * Default 10,000. Every node of a cluster should use the same.
   */
  nodeTtlMs?: number;
  /** Told of each takeover of a dead node this node did, and of each that failed (for its log). */
  onTakeover?: (node: string, outcome: TakeoverReport) => void;
  /** Told of change notices that could not be sent and of their listeners' failures. */
  onError?: (err: unknown) => void;
  /**
   * Told, once, that this node was declared dead by the cluster (a survivor took its calls
   * over) or superseded by a later run of the same node id: it must stop acting at once. The
   * backends have already stopped its heartbeat, watch and queue operations; `rcml serve` exits.
   */
  onFenced?: (why: string) => void;
}

/** What a node runs on, and how to let go of it. */
export interface ClusterBackends {
  /** This node's name. */
  readonly nodeId: string;
  store: PostgresStore;
  /** The shared queue store, when Redis is given. */
  queueStore?: QueueStore;
  /** How this node's queues bridge calls matched with calls of other nodes, when Redis is given. */
  queuePeers?: RedisQueuePeers;
  /**
   * How the records cached in this node's memory follow writes made through other nodes
   * (`src/store/changes.ts`): Redis pub/sub when Redis is given; without it, no other node
   * is told (run a single node on PostgreSQL without Redis).
   */
  changes: SharedChanges;
  /** How the web consoles of the nodes share their live messages, when Redis is given. */
  consoleRelay?: RedisConsoleRelay;
  /**
   * Readiness probes of the shared backends, by name (`postgres`; with Redis also `redis` and
   * `lease`: this node's lease is held).
   */
  checks: Record<string, () => Promise<void>>;
  /** Queue members of calls this node left live when it last stopped, removed at start. */
  readonly interruptedMembers: number;
  /**
   * Publishes the URL the other nodes forward live-call requests to (in this node's heartbeat),
   * once it listens. Without Redis, does nothing.
   */
  advertise(url: string): Promise<void>;
  /** The node that owns a live call of the account, or undefined when the call is not live. */
  ownerOf(accountSid: string, callSid: string): Promise<string | undefined>;
  /** The URL `node` advertises: '' while it starts, undefined once its heartbeat has expired. */
  urlOf(node: string): Promise<string | undefined>;
  /**
   * Closes the calls of `node`, whose heartbeat has expired, or waits for the survivor doing it
   * (bounded); `alive` when the node came back meanwhile.
   */
  settleDeadOwner(node: string): Promise<'closed' | 'alive'>;
  /**
   * The secret every node shares (kept in Redis), signing the requests nodes forward to each
   * other. Without Redis, '' (nothing is forwarded).
   */
  forwardSecret(): string;
  /**
   * Calls `listener` on this node each time a node of the cluster is found dead (its heartbeat
   * expired without a clean stop), with the dead node's name, once a survivor has closed its
   * live calls and removed its queue members; on every surviving node, the one that did it
   * included. Delivered through Redis pub/sub: at most once, to nodes connected to Redis at the
   * time. A clean stop is not a death. Returns a function that removes the listener. Without
   * Redis, never fires.
   */
  onNodeDead(listener: (nodeId: string) => void): () => void;
  /**
   * Undefined while this node may act (its lease is held); else a promise settling once it is
   * renewed, and never once the node is fenced off. Webhooks wait on it before they are sent.
   */
  gate(): Promise<void> | undefined;
  /**
   * Calls `listener` when this node found Redis had lost its data (restarted empty): its
   * membership, heartbeat, forward secret and room claims are already made anew; the listener
   * puts back what lives above (the calls waiting in queues: `Engine.restoreQueues`). Returns a
   * function that removes the listener. Without Redis, never fires.
   */
  onRedisLost(listener: () => void): () => void;
  /** Why this node was fenced off (declared dead or superseded), once it was. */
  fenced(): string | undefined;
  /** Stops the heartbeat and closes Redis (the store is closed by its server). */
  close(): Promise<void>;
}

const NODE_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Opens a node's backends. With Redis, the node first takes its own takeover lock (waiting for
 * a survivor that is closing its calls), starts its heartbeat, then opens the store (which
 * closes the calls its previous run left live) and removes their queue members: a restarted node
 * and a survivor never both close a call.
 */
export async function openClusterBackends(options: ClusterBackendOptions): Promise<ClusterBackends> {
  if (!NODE_ID.test(options.nodeId)) {
    throw new Error(
      `node id must be 1-64 letters, digits, '.', '_' or '-' (got ${JSON.stringify(options.nodeId)})`,
    );
  }
  const nodeId = options.nodeId;
  const postgresCheck = (store: PostgresStore) => async () => {
    await store.pool.query('SELECT 1');
  };
  if (!options.redisUrl) {
    const store = await openPostgresStore({ url: options.databaseUrl, nodeId });
    return {
      nodeId,
      store,
      changes: localChanges,
      checks: { postgres: postgresCheck(store) },
      interruptedMembers: 0,
      advertise: async () => {},
      ownerOf: (accountSid, callSid) => store.ownerOf(accountSid, callSid),
      urlOf: async () => undefined,
      settleDeadOwner: async () => 'alive',
      gate: () => undefined,
      onRedisLost: () => () => {},
      fenced: () => undefined,
      forwardSecret: () => '',
      onNodeDead: () => () => {},
      close: async () => {},
    };
  }
  const prefix = options.redisPrefix ?? 'rcml';
  const ttlMs = options.nodeTtlMs ?? NODE_TTL_MS;
  if (!Number.isInteger(ttlMs) || ttlMs < 100) {
    throw new Error(`node TTL must be a whole number of ms >= 100 (got ${ttlMs})`);
  }
  // Not auto-pipelined: an arrival is one command already, and batching cost more CPU per
  // arrival than the writes it saved (see the cluster bench in docs/api.md).
  const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(
      `cannot reach Redis at ${options.redisUrl}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const lease = new NodeLease(ttlMs);
  // A fenced node touches its queues no more; one whose lease lapsed waits to renew it.
  const queueStore = new RedisQueueStore(redis, prefix, nodeId, () => lease.whenValid());
  // A takeover of this node by a survivor must finish before the node closes anything itself.
  const lockMs = Math.max(3 * ttlMs, 5000);
  let heartbeat: Heartbeat | undefined;
  let store: PostgresStore | undefined;
  let interruptedMembers = 0;
  const lost = new Set<() => void>();
  try {
    await withTakeoverLock(
      { redis, prefix, lockMs },
      nodeId,
      async () => {
        // Opening takes this run's epoch, fencing any earlier run of the node off.
        const opened = await openPostgresStore({
          url: options.databaseUrl,
          nodeId,
          // A node frozen inside a transaction holds a takeover back at most this long.
          idleTransactionMs: Math.max(ttlMs, 1000),
        });
        store = opened;
        const epochs = opened.lease as StoreLease;
        epochs.onFenced((err) => lease.fence(err.message));
        heartbeat = await startHeartbeat(redis, {
          prefix,
          node: nodeId,
          ttlMs,
          lease,
          epoch: () => epochs.holder.epoch,
          renew: () => epochs.renew(),
          onLost: () => {
            for (const listener of lost) listener();
          },
        });
        interruptedMembers = await removeQueueMembers(redis, prefix, queueStore, store.interruptedCalls);
        // Room names its previous run held are free again (its rooms were ended with its calls).
        const rooms = await dropRoomClaims(redis, prefix, nodeId);
        // Its previous run died: nodes bridged with its calls, or with calls in its rooms, hear
        // of it like of any death.
        if (store.interruptedCalls.length > 0 || rooms > 0) await redis.publish(deathChannel(prefix), nodeId);
      },
      lockMs + ttlMs,
    );
    if (!store) throw new Error(`node ${nodeId} is being taken over by another node; try again`);
  } catch (err) {
    await heartbeat?.stop();
    await store?.close();
    redis.disconnect();
    throw err;
  }
  const opened = store as PostgresStore;
  const beat = heartbeat as Heartbeat;
  const context: TakeoverContext = {
    redis,
    prefix,
    self: nodeId,
    store: opened,
    queues: queueStore,
    lockMs,
    lease,
    told: options.onTakeover,
  };
  const listeners = new Set<(nodeId: string) => void>();
  const deaths = await subscribeDeaths(redis, prefix, (node) => {
    // Its own death notice: a survivor took this node over while it was not heard from.
    if (node === nodeId) lease.fence(`node ${nodeId} was declared dead and taken over by another node`);
    else for (const listener of [...listeners]) listener(node);
  });
  const watch = watchNodes(context, ttlMs);
  const secret = await watchForwardSecret(redis, prefix, ttlMs);
  lost.add(() => secret.refresh());
  lease.onFenced((why) => {
    watch.stop();
    void beat.stop();
    options.onFenced?.(why);
  });
  // Fenced while opening (a survivor was quicker): told now.
  if (lease.fenced !== undefined) options.onFenced?.(lease.fenced);
  const queuePeers = await RedisQueuePeers.start(redis, prefix, nodeId, ttlMs);
  const changes = await RedisChanges.start(redis, prefix, nodeId, options.onError);
  const consoleRelay = await RedisConsoleRelay.start(redis, prefix, nodeId);
  // Matches with a dead node's calls end as if those calls had hung up; so do its seats in rooms.
  listeners.add((node) => {
    queuePeers.endBridgesWith(node);
    queuePeers.endRoomsWith(node);
  });
  lost.add(() => {
    queuePeers.reclaimRooms().then(
      (names) => {
        if (names.length > 0)
          options.onError?.(
            new Error(`room names claimed by another node after Redis lost them: ${names.join(', ')}`),
          );
      },
      (err: unknown) => options.onError?.(err),
    );
  });
  return {
    nodeId,
    store: opened,
    queueStore,
    queuePeers,
    changes,
    consoleRelay,
    checks: {
      postgres: postgresCheck(opened),
      redis: async () => {
        await redis.ping();
      },
      // New calls go to nodes sure to own theirs.
      lease: async () => {
        if (lease.fenced !== undefined) throw new Error(lease.fenced);
        if (!lease.valid) throw new Error(`node ${nodeId} has not renewed its lease in ${ttlMs} ms`);
      },
    },
    interruptedMembers,
    advertise: (url) => beat.advertise(url),
    ownerOf: (accountSid, callSid) => opened.ownerOf(accountSid, callSid),
    urlOf: (node) => advertisedUrl(redis, prefix, node),
    settleDeadOwner: (node) => settleDeadNode(context, node),
    gate: () => lease.whenValid(),
    onRedisLost: (listener) => {
      lost.add(listener);
      return () => lost.delete(listener);
    },
    fenced: () => lease.fenced,
    forwardSecret: () => secret.get(),
    onNodeDead: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      watch.stop();
      secret.stop();
      deaths.close();
      changes.close();
      await queuePeers.close();
      await consoleRelay.close();
      await beat.stop();
      redis.disconnect();
    },
  };
}
