/** What a node of `rcml serve` keeps its records in: SQLite under --data, or PostgreSQL (+ Redis) in a cluster. */
import type { Command } from 'commander';
import { type ClusterBackends, openClusterBackends } from '../../cluster/backends.js';
import { redactUrl } from '../../engine/fetcher.js';
import type { CallRecord } from '../../engine/records.js';
import { createDatabaseIfAbsent } from '../../store/postgres/create-database.js';
import { openSqliteStore } from '../../store/sqlite/open.js';
import type { ServeOps } from './serve-ops.js';
import type { ServeOptions } from './serve-options.js';

/**
 * Exit status of a node that learnt it was declared dead by the cluster (a survivor took its
 * calls over): EX_TEMPFAIL, for a supervisor to start it again (it then rejoins with a new epoch).
 */
export const FENCED_EXIT_CODE = 75;

/** Where the final status callbacks of the calls this node closes for a dead node go (set once it serves). */
export interface FinalCallbacks {
  send(closed: CallRecord): void;
}

/** The store (and, in a cluster, the shared queues and liveness) a node runs on. */
export async function openBackends(
  options: ServeOptions,
  command: Command,
  log: ServeOps['log'],
  finalCallbacks: FinalCallbacks,
) {
  if (options.database === undefined) {
    if (options.redis !== undefined || options.nodeId !== undefined) {
      command.error('error: --redis and --node-id need --database', { exitCode: 2 });
    }
    const store = await openSqliteStore({ dir: options.data });
    return { store, where: `data ${options.data}`, cluster: undefined };
  }
  if (!/^postgres(ql)?:\/\//.test(options.database)) {
    command.error('error: --database must be a postgres:// URL', { exitCode: 2 });
  }
  if (options.redis !== undefined && !/^rediss?:\/\//.test(options.redis)) {
    command.error('error: --redis must be a redis:// URL', { exitCode: 2 });
  }
  if (
    options.redis === undefined &&
    (options.advertiseUrl !== undefined || options.nodeTtlMs !== undefined)
  ) {
    command.error('error: --advertise-url and --node-ttl-ms need --redis', { exitCode: 2 });
  }
  const nodeId = options.nodeId ?? 'node1';
  // A first node on a server with only its default databases creates the one it is given.
  let created: string | undefined;
  try {
    created = await createDatabaseIfAbsent(options.database);
  } catch (err) {
    command.error(
      `error: cannot create the database of ${redactUrl(options.database)}: ${err instanceof Error ? err.message : String(err)}`,
      { exitCode: 2 },
    );
  }
  const cluster: ClusterBackends = await openClusterBackends({
    databaseUrl: options.database,
    redisUrl: options.redis,
    nodeId,
    // Several platforms can share one Redis, each under its own key prefix.
    redisPrefix: process.env.RCML_REDIS_PREFIX || undefined,
    nodeTtlMs: options.nodeTtlMs,
    onTakeover: (node, outcome) => {
      if (outcome.status === 'done') {
        log.warn({ node, calls: outcome.calls.length, members: outcome.members }, 'took over a dead node');
        // Their final status callbacks leave from here, once (this node closed them).
        for (const closed of outcome.closed) finalCallbacks.send(closed);
      } else if (outcome.status === 'failed') {
        log.error({ node, err: outcome.error }, 'taking over a dead node failed');
      }
    },
    onError: (err) => log.error({ err }, 'change notice between nodes failed'),
    // Its calls belong to the survivor now: nothing more may leave this process.
    onFenced: (why) => {
      log.error(
        { node: nodeId, why },
        'this node was declared dead by the cluster; exiting, restart it to rejoin',
      );
      process.exit(FENCED_EXIT_CODE);
    },
  });
  return {
    store: cluster.store,
    where: `node ${nodeId}, PostgreSQL${created ? ` (database ${created} created)` : ''}${cluster.queueStore ? ' + Redis' : ''}`,
    cluster,
  };
}
