/**
 * What the platform server is made of besides its engine: its options, the REST app's options
 * built from them, the designer service it runs in process, and the parts it closes.
 */
import type { Engine, EngineOptions } from '../engine/engine.js';
import type { NumberConfig } from '../engine/types.js';
import type { CallQueueStore } from '../store/callqueue/ports.js';
import type { SharedChanges } from '../store/changes.js';
import { createMemoryDesignerStore } from '../store/designer/memory.js';
import type { DesignerStore } from '../store/designer/ports.js';
import type { Store } from '../store/ports.js';
import { engineRouting } from './callqueue/engine-routing.js';
import type { CallOwners } from './cluster-forward.js';
import type { ConsoleFeed } from './console/feed.js';
import type { ConsoleOptions } from './console/routes.js';
import type { ServedProjects } from './console/served-projects.js';
import { SERVICE_PATH } from './designer/context.js';
import { egressFetch } from './designer/egress-fetch.js';
import { createDesignerService, type DesignerService } from './designer/service.js';
import type { EnterpriseAreaOptions } from './enterprise/mount.js';
import type { RateLimitOptions } from './http/rate-limit.js';
import { basePathOf } from './late-base.js';
import type { OpsOptions, readinessOf } from './ops/index.js';
import type { CallControl } from './platform/call-control.js';
import type { PlatformDeps } from './platform/context.js';

/** Engine options a server passes through unchanged. */
export type ServerEngineOptions = Pick<
  EngineOptions,
  'settings' | 'http' | 'defaultParty' | 'onEvent' | 'queues' | 'instanceId' | 'telephony'
>;

/** Options shared by {@link createEngineApp} and {@link startEngineServer}. */
export interface EngineAppOptions {
  /** Where every record goes, and where accounts authenticate. */
  store: Store;
  /** `real` (default) runs on the wall clock; `virtual` only moves through `POST /sim/Advance`. */
  clock?: 'real' | 'virtual';
  /** Seed of the sid generator on a virtual clock (ignored on a real one: sids are random). */
  seed?: number;
  /** Start of virtual time, ms since the epoch. Default: the current second. */
  epoch?: number;
  /** Account of records not tied to a call. Default the store's oldest account. */
  accountSid?: string;
  /**
   * Whether `/sim` may move what every account shares: the virtual clock (`/sim/Advance`) and
   * simulated parties' behaviours (`/sim/Parties`). Off, those answer 403 `simulation-off`.
   * Default on (`rcml serve` turns it off on the real clock unless given `--sim`).
   */
  sharedSimulation?: boolean;
  /** Inbound routing of numbers (`POST /sim/Calls`); a number with an `accountSid` is that account's. */
  numbers?: Record<string, NumberConfig>;
  /** More engine options (media settings, HTTP client, default party, inspection hook). */
  engine?: ServerEngineOptions;
  maxBodyBytes?: number;
  /** Told of unexpected errors (answered 500). */
  onError?: (err: unknown) => void;
  /**
   * Call Queuing numbers and their calls' events (closed with the server). Default: in memory.
   * Numbers already in it are routed again at start.
   */
  callQueueStore?: CallQueueStore;
  /** Store of the Visual Designer service (closed with the server). Default: in memory. */
  designer?: DesignerStore;
  /** The enterprise areas' store and settings; their store is closed with the server. */
  enterprise?: EnterpriseAreaOptions;
  /**
   * `/ready` checks, metrics (calls, webhooks, queues, notifications, HTTP requests) and the log
   * that lines about calls go to (see docs/operations.md).
   */
  ops?: OpsOptions;
  /** Limits per account (see docs/security.md). Default: none. */
  accountLimits?: AccountLimits;
  /**
   * The web console at `{base_url}/console` (docs/console.md): where its built front end is and
   * how long sessions last; `false` serves none. Default: served from this package's build.
   */
  console?: Omit<ConsoleOptions, 'feed' | 'projects'> | false;
  /** In a cluster: who owns each live call, to forward live-call writes to the owner. */
  callOwners?: CallOwners;
  /**
   * In a cluster: how designer builds and Call Queuing routes kept in this node's memory follow
   * writes made through other nodes (see `SharedChanges`). Default: a single node's, no-op.
   */
  changes?: SharedChanges;
  /** Where a client is registered now (SIP), shown on the Clients resource (`rcml serve --sip`). */
  registrationOf?: PlatformDeps['registrationOf'];
}

/** Limits each account is held to. */
export interface AccountLimits {
  /** Requests per second on the API, a token bucket per account (429 with `Retry-After`). */
  api?: RateLimitOptions;
  /** Most live calls of one account on this server (`POST Calls` beyond: 429, code 21230). */
  maxLiveCalls?: number;
}

/** The REST app's options both entry points build over their engine (all but the base URL). */
export function appOptions(
  options: EngineAppOptions,
  engine: Engine,
  callControl: CallControl,
  designer: DesignerService,
  readiness: ReturnType<typeof readinessOf>,
  feed: ConsoleFeed | undefined,
  projects?: ServedProjects,
) {
  return {
    store: options.store,
    callControl,
    designer,
    maxBodyBytes: options.maxBodyBytes,
    onError: options.onError,
    callQueue: { store: options.callQueueStore, routing: engineRouting(engine, options.store.calls) },
    enterprise: options.enterprise,
    ops: { ...options.ops, readiness },
    rateLimit: options.accountLimits?.api,
    console: options.console === false ? undefined : { ...options.console, feed, projects },
    callOwners: options.callOwners,
    changes: options.changes,
    registrationOf: options.registrationOf,
  };
}

/** The designer service of an engine server, its controller served in process once the base is known. */
export function designerOf(
  options: EngineAppOptions,
  engine: Engine,
): DesignerService & { attach(baseUrl: string): void } {
  // External-service steps connect where the engine's own requests may, no further.
  const guarded = egressFetch(options.engine?.http?.egress);
  const service = createDesignerService({
    store: options.store,
    designer: options.designer ?? createMemoryDesignerStore(),
    basePath: basePathOf((options as { baseUrl?: string }).baseUrl),
    now: () => engine.now(),
    fetch: guarded?.fetch,
    changes: options.changes,
  });
  return {
    ...service,
    close: async () => {
      try {
        await service.close();
      } finally {
        await guarded?.close();
      }
    },
    attach: (baseUrl) => {
      const root = `${baseUrl.replace(/\/+$/, '')}${SERVICE_PATH}`;
      engine.registerHandler(`${root}/apps/`, service.rcmlHandler);
      engine.registerHandler(`${root}/projects/`, service.mediaHandler);
    },
  };
}

/** Closes what an engine app owns besides its engine: the designer service, then the stores. */
export async function closeOwned(options: EngineAppOptions, designer: DesignerService): Promise<void> {
  await designer.close();
  await options.store.close();
  await options.callQueueStore?.close();
  await options.enterprise?.store?.close();
}
