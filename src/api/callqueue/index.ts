import { Hono } from 'hono';
import type { CallQueueStore } from '../../store/callqueue/ports.js';
import type { SharedChanges } from '../../store/changes.js';
import type { Store } from '../../store/ports.js';
import type { SidFactory } from '../../store/sid.js';
import { basicAuth } from '../http/auth.js';
import { registerCallback } from './callback.js';
import type { CallQueueDeps, CallQueueEnv } from './context.js';
import { registerNumbers } from './numbers.js';
import { QueueObserver } from './observer.js';
import { registerProvisioning } from './provisioning.js';
import { registerQueues } from './queues.js';
import type { CallQueueRouting } from './routing.js';
import { CallQueueService } from './service.js';

export { engineRouting } from './engine-routing.js';
export type { CallQueueRouting, LiveCallInfo } from './routing.js';
export { CallQueueService } from './service.js';

/** Options of {@link createCallQueueRoutes}. */
export interface CallQueueRoutesOptions {
  /** Accounts (Basic authentication) and call records (the callback's ownership check). */
  records: Store;
  store: CallQueueStore;
  routing?: CallQueueRouting;
  /** `{base_url}`: origin and path, no trailing slash. */
  baseUrl: string;
  now: () => number;
  newSid?: SidFactory;
  onError: (err: unknown) => void;
  /** Change notices between the nodes of a cluster (see `CallQueueService`). */
  changes?: SharedChanges;
}

/** The Call Queuing routes, to mount at `{base_url}/callqueue`, with their service. */
export interface CallQueueRoutes {
  app: Hono;
  service: CallQueueService;
  /** Routes every stored number (call once when a server starts over an existing store). */
  restore(): Promise<number>;
  /** Stops following queue events and change notices. */
  close(): void;
}

/**
 * The Call Queuing product: `POST /provisioning` (the platform's) and the extensions `numbers`,
 * `queues` (Basic authentication), plus `POST /callback`, which the platform itself calls.
 */
export function createCallQueueRoutes(options: CallQueueRoutesOptions): CallQueueRoutes {
  const service = new CallQueueService({
    store: options.store,
    routing: options.routing,
    baseUrl: options.baseUrl,
    now: options.now,
    newSid: options.newSid,
    changes: options.changes,
  });
  const observer = new QueueObserver(service, options.onError);
  const deps: CallQueueDeps = { service, observer };

  const app = new Hono();
  registerCallback(app, deps, options.records);
  const authed = new Hono<CallQueueEnv>();
  authed.use('*', basicAuth(options.records.accounts));
  registerProvisioning(authed, deps);
  registerNumbers(authed, deps);
  registerQueues(authed, deps);
  app.route('/', authed);
  return {
    app,
    service,
    restore: () => service.restore(),
    close: () => {
      observer.close();
      service.close();
    },
  };
}
