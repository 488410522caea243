/**
 * Two platform nodes in one process, as two `rcml serve --database --redis` nodes are: each
 * its own engine app (virtual clock), PostgreSQL store and Redis connection, over one schema and
 * one key prefix, with the same `{base_url}` (the load balancer's).
 */
import { Redis } from 'ioredis';
import { createEngineApp, type EngineApp } from '../../src/api/engine-server.js';
import { RedisChanges } from '../../src/cluster/changes.js';
import { webhookSignature } from '../../src/engine/signature.js';
import type { EngineEvent } from '../../src/engine/types.js';
import { postgresCallQueueStore } from '../../src/store/callqueue/postgres.js';
import { postgresDesignerStore } from '../../src/store/designer/postgres.js';
import { postgresEnterpriseStore } from '../../src/store/enterprise/postgres.js';
import type { PostgresStore } from '../../src/store/postgres/open.js';
import { ACCOUNT_A, account, signingKeyOf } from '../store/fixtures.js';
import { openScratchPostgres, REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

export const BASE = 'http://platform.test';

export interface SharedNode {
  id: string;
  built: EngineApp;
  store: PostgresStore;
  /** What this node's engine reported. */
  events: EngineEvent[];
  changes: RedisChanges;
  redis: Redis;
  /** A request to this node; `path` below `{base_url}`, Basic credentials of `auth`. */
  fetch(path: string, init?: RequestInit & { auth?: string }): Promise<Response>;
}

export interface SharedNodes {
  nodes: [SharedNode, SharedNode];
  prefix: string;
  /** Every node has heard, and acted on, every change notice published so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function sharedNodes(auth: string): Promise<SharedNodes> {
  const schema = uniqueName('s');
  const prefix = `${REDIS_PREFIX}${uniqueName('k')}`;
  const nodes: SharedNode[] = [];
  for (const [i, id] of ['n1', 'n2'].entries()) {
    const store = await openScratchPostgres({ schema, nodeId: id });
    if (i === 0) await store.accounts.put(account(ACCOUNT_A));
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    const changes = await RedisChanges.start(redis, prefix, id);
    const c = store.connection;
    const events: EngineEvent[] = [];
    const built = await createEngineApp({
      store,
      baseUrl: BASE,
      clock: 'virtual',
      seed: 20 + i,
      accountSid: ACCOUNT_A,
      callQueueStore: postgresCallQueueStore(c),
      designer: postgresDesignerStore(c),
      enterprise: { store: postgresEnterpriseStore(c) },
      engine: { instanceId: id, onEvent: (e) => events.push(e) },
      console: false,
      changes,
    });
    const fetch = (path: string, init: RequestInit & { auth?: string } = {}) => {
      const headers = new Headers(init.headers);
      headers.set('Authorization', init.auth ?? auth);
      return Promise.resolve(built.app.fetch(new Request(BASE + path, { ...init, headers })));
    };
    // Status callbacks of Call Queuing numbers reach this node's own endpoint in process.
    built.engine.registerHandler(`${BASE}/callqueue/callback`, async (req) => {
      const res = await built.app.fetch(
        new Request(req.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            // Signed as the engine signs it over HTTP (in-process requests are not).
            'X-Twilio-Signature': webhookSignature(signingKeyOf(req.params.AccountSid), req.url, req.params),
          },
          body: new URLSearchParams(req.params).toString(),
        }),
      );
      return { status: res.status, contentType: 'text/plain', body: await res.text() };
    });
    nodes.push({ id, built, store, events, changes, redis, fetch });
  }
  return {
    nodes: nodes as [SharedNode, SharedNode],
    prefix,
    settle: async () => {
      for (const n of nodes) await n.changes.flush();
    },
    close: async () => {
      for (const n of nodes) {
        await n.built.close();
        n.changes.close();
        n.redis.disconnect();
      }
    },
  };
}
