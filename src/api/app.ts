import { type Context, type Env, Hono, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { API_VERSION } from '../engine/records.js';
import { createMemoryCallQueueStore } from '../store/callqueue/memory.js';
import type { CallQueueStore } from '../store/callqueue/ports.js';
import type { SharedChanges } from '../store/changes.js';
import { createMemoryDesignerStore } from '../store/designer/memory.js';
import type { Store } from '../store/ports.js';
import type { SidFactory } from '../store/sid.js';
import { StoreUnavailableError } from '../store/write-queue.js';
import { autoAttendantOpenApi } from './autoattendant/openapi.js';
import { createCallQueueRoutes } from './callqueue/index.js';
import { callQueueOpenApi } from './callqueue/openapi.js';
import type { CallQueueRouting } from './callqueue/routing.js';
import {
  type CallOwners,
  FORWARDED_BY,
  forwardLiveCallWrites,
  recogniseForwarded,
} from './cluster-forward.js';
import { type ConsoleOptions, mountConsole } from './console/routes.js';
import { SERVICE_PATH } from './designer/context.js';
import { designerOpenApi } from './designer/openapi.js';
import { createDesignerService, type DesignerService, designerError } from './designer/service.js';
import {
  type EnterpriseAreaOptions,
  enterpriseNotFound,
  isAnnouncementUpload,
  mountEnterpriseAreas,
} from './enterprise/mount.js';
import { enterprisesOpenApi } from './enterprise/openapi.js';
import { mountHome } from './home.js';
import { methodsAllowed } from './http/allow.js';
import { basicAuth } from './http/auth.js';
import { type AuthFailureOptions, limitAuthFailures } from './http/auth-failures.js';
import { limitBodyShape } from './http/body-shape.js';
import { ApiError, errorResponse } from './http/errors.js';
import { createListCache } from './http/list-cache.js';
import { noStore } from './http/no-store.js';
import { readNodeBody } from './http/node-body.js';
import { createRateLimiter, limitRequests, type RateLimitOptions } from './http/rate-limit.js';
import {
  refuseWritesWhileStoreDown,
  STORE_RETRY_AFTER_SECONDS,
  storeUnavailable,
} from './http/store-unavailable.js';
import { checkCatalogueAnswers, mountOpenApi } from './openapi/index.js';
import { isClientAbort, mountOps, type OpsOptions, readinessOf } from './ops/index.js';
import { registerAccounts } from './platform/accounts.js';
import { registerApplications } from './platform/applications.js';
import { type CallControl, CallControlError } from './platform/call-control.js';
import { registerCalls } from './platform/calls.js';
import { registerClients } from './platform/clients.js';
import { registerConferences } from './platform/conferences.js';
import type { PlatformDeps, PlatformEnv } from './platform/context.js';
import { registerGathers } from './platform/gathers.js';
import { registerNotifications } from './platform/notifications.js';
import { isRecordingAudio, registerRecordings } from './platform/recordings.js';
import { registerSim } from './platform/sim.js';
import { TWILIO_API_VERSION, twilioDialect } from './platform/twilio-dialect.js';
import { taskRouterOpenApi } from './taskrouter/openapi.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Where records are read and accounts authenticated. */
  store: Store;
  /** Where a client is registered now (SIP), shown on the Clients resource. */
  registrationOf?: PlatformDeps['registrationOf'];
  /** The call engine. Without it, call operations and `/sim` answer 501. */
  callControl?: CallControl;
  /**
   * `{base_url}`: the service address, e.g. `http://127.0.0.1:8080` or `https://host/prefix`.
   * Its path is where routes are mounted; the whole is used in recordings' `file_uri`.
   * Default: none (routes at the root, relative `file_uri`).
   */
  baseUrl?: string;
  /** Largest accepted request body in bytes (413 beyond). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Clock for `date_updated` of records the API changes. Default `Date.now`. */
  now?: () => number;
  /** Told of unexpected errors (answered 500). Default: written to stderr. */
  onError?: (err: unknown) => void;
  /**
   * Room, in bytes of body, for rendered Calls list pages kept between requests (each served
   * only while the account's calls are unchanged; needs a store whose calls have `version`).
   * Default 8 MiB; 0 keeps none.
   */
  listCacheBytes?: number;
  /**
   * The Visual Designer service mounted at `{base_url}/visual-designer/services`. Default: one
   * over an in-memory designer store (its body limits are its own, not `maxBodyBytes`).
   */
  designer?: DesignerService;
  /**
   * The enterprise areas (`/enterprises`, `/autoattendant`, `/taskrouter`): their store
   * (default a new memory store), sids, password cost and announcement size limit.
   */
  enterprise?: EnterpriseAreaOptions;
  /** The Call Queuing product at `{base_url}/callqueue`. */
  callQueue?: CallQueueAppOptions;
  /** `/health`, `/ready` (its checks) and `/metrics` (when metrics are given); see docs/operations.md. */
  ops?: OpsOptions;
  /**
   * Requests per second of each account, a token bucket per account: past it an authenticated
   * request answers 429 with `Retry-After` (see docs/security.md). Default: no limit.
   */
  rateLimit?: RateLimitOptions;
  /**
   * Failed authentications per source address (Basic credentials and console logins): past
   * them, such requests from the address answer 429 with `Retry-After` until the window ends.
   * Default 100 a minute; `false` counts none. Needs Node's request as the fetch handler's env
   * (`startServer`, `createNodeListener` and @hono/node-server pass it); without it none is counted.
   */
  authFailures?: AuthFailureOptions | false;
  /** The web console at `{base_url}/console` (see docs/console.md). Default: none. */
  console?: ConsoleOptions;
  /**
   * In a cluster: who owns each live call. Live-call writes (modify, mute, `/sim` digits and
   * speech) for a call another node owns are forwarded to it (see `cluster-forward.ts`).
   */
  callOwners?: CallOwners;
  /**
   * In a cluster: how the designer builds and Call Queuing routes this app keeps in memory
   * follow writes made through other nodes (see `SharedChanges`; a given `designer` takes its
   * own). Default: a single node's, no-op.
   */
  changes?: SharedChanges;
}

/** Options of the Call Queuing product of {@link createApp}. */
export interface CallQueueAppOptions {
  /** Provisioned numbers and their calls' events. Default: a new store in memory. */
  store?: CallQueueStore;
  /** The call engine's numbers and queues. Without it numbers are recorded but route nothing. */
  routing?: CallQueueRouting;
  /** Sids of new numbers. Default random. */
  newSid?: SidFactory;
}

/** Areas whose routes are declared as a catalogue (see docs/api.md, OpenAPI document). */
const CATALOGUED_AREAS = [
  designerOpenApi,
  callQueueOpenApi,
  enterprisesOpenApi,
  autoAttendantOpenApi,
  taskRouterOpenApi,
];

const STATUS_OF_CONTROL_ERROR = {
  'not-found': 404,
  'not-live': 409,
  invalid: 400,
  unsupported: 501,
  'clock-not-virtual': 409,
  unavailable: 503,
  'too-many-live-calls': 429,
  'number-unavailable': 409,
  'simulation-off': 403,
} as const;

/** Splits a base URL into its origin-and-path (for links) and its path (for routes). */
function baseOf(baseUrl: string | undefined): { full: string; path: string } {
  if (!baseUrl) return { full: '', path: '' };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`baseUrl is not an absolute URL: ${JSON.stringify(baseUrl)}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { full: `${url.origin}${path}`, path };
}

/**
 * The platform REST API as a hono app: `{api_root}` = `{base_url}/platform/2012-04-24` (also
 * served without `/platform`, and in Twilio's dialect at `{base_url}/2010-04-01`), plus the `/sim`
 * extension. Its `fetch` handler embeds in any
 * server. Every route needs HTTP Basic authentication except recording `.wav` downloads.
 */
export function createApp(options: AppOptions): Hono {
  const base = baseOf(options.baseUrl);
  const designer =
    options.designer ??
    createDesignerService({
      store: options.store,
      designer: createMemoryDesignerStore(),
      basePath: base.path,
      now: options.now,
      changes: options.changes,
    });
  const deps: PlatformDeps = {
    store: options.store,
    baseUrl: base.full,
    applicationRenamed: (accountSid, sid, name) => designer.renamed(accountSid, sid, name),
    callControl: options.callControl,
    fileBase: `${base.full}/platform/${API_VERSION}`,
    listCache: createListCache(options.listCacheBytes ?? 8 * 1024 * 1024),
    registrationOf: options.registrationOf,
  };
  const now = options.now ?? Date.now;
  const onError = options.onError ?? ((err: unknown) => console.error('rcml api: unexpected error', err));

  const platform = new Hono<PlatformEnv>();
  platform.use('*', basicAuth(options.store.accounts, isRecordingAudio));
  registerAccounts(platform, deps, now);
  registerCalls(platform, deps);
  registerRecordings(platform, deps);
  registerGathers(platform, deps);
  registerNotifications(platform, deps);
  registerApplications(platform, deps, now);
  registerConferences(platform, deps);
  registerClients(platform, deps, now);

  const sim = new Hono<PlatformEnv>();
  sim.use('*', basicAuth(options.store.accounts));
  registerSim(sim, deps);

  // Numbers already in the store are routed again before any Call Queuing request is served.
  const callQueue = createCallQueueRoutes({
    records: options.store,
    store: options.callQueue?.store ?? createMemoryCallQueueStore(),
    routing: options.callQueue?.routing,
    baseUrl: base.full,
    now,
    newSid: options.callQueue?.newSid,
    onError,
    changes: options.changes,
  });
  const restored = callQueue.restore().then(
    () => undefined,
    (err) => onError(err),
  );

  const app = new Hono();
  app.use('*', noStore);
  app.use('*', checkCatalogueAnswers(base.path, CATALOGUED_AREAS));
  const owners = options.callOwners;
  // A request another node forwarded was counted there: one client request counts once.
  if (owners)
    app.use(
      '*',
      recogniseForwarded(() => owners.forwardSecret()),
    );
  // A request another node forwarded comes from that node's address, its credentials checked there.
  const forwarded = (c: Context) => c.get(FORWARDED_BY) !== undefined;
  if (options.authFailures !== false) {
    const loginPath = `${base.path}/console/api/login`;
    app.use('*', limitAuthFailures(options.authFailures ?? {}, loginPath, forwarded));
  }
  const limiter = options.rateLimit ? createRateLimiter(options.rateLimit) : undefined;
  if (limiter) {
    app.use('*', limitRequests(options.store.accounts, limiter, forwarded));
  }
  mountOps(app, base.path, readinessOf(options.ops, options.store), options.ops?.metrics);
  app.use('*', refuseWritesWhileStoreDown(options.store.writes));
  const maxSize = options.maxBodyBytes ?? 1024 * 1024;
  const tooLarge = (c: Context) =>
    errorResponse(c, new ApiError(413, 'body-too-large', `request body exceeds ${maxSize} bytes`));
  const limitBody = bodyLimit({ maxSize, onError: tooLarge });
  // Form and JSON bodies served by Node are read off its request directly (see node-body.ts).
  const readBody = async (c: Context, next: Next) => {
    const read = await readNodeBody(c, maxSize);
    if (read === 'too-large') return tooLarge(c);
    return read === 'read' ? limitBodyShape(c, next) : limitBody(c, () => limitBodyShape(c, next));
  };
  // GET and HEAD carry no body; asking for one would make @hono/node-server build a whole
  // Request (with an AbortController) for every read.
  // The designer service and announcement uploads set their own limits (media and archives
  // are larger than records).
  const designerPath = `${base.path}${SERVICE_PATH}`;
  const isUpload = isAnnouncementUpload(base.path);
  app.use('*', (c, next) =>
    c.req.method === 'GET' ||
    c.req.method === 'HEAD' ||
    c.req.path.startsWith(`${designerPath}/`) ||
    isUpload(c.req.method, c.req.path)
      ? next()
      : readBody(c, next),
  );
  if (options.callOwners) {
    app.use(
      '*',
      forwardLiveCallWrites({
        owners: options.callOwners,
        accounts: options.store.accounts,
        basePath: base.path,
      }),
    );
  }
  mountEnterpriseAreas(
    app,
    { basePath: base.path, baseUrl: base.full, accounts: options.store.accounts, now, onError },
    options.enterprise,
  );
  app.route(`${base.path}/platform/${API_VERSION}`, platform);
  app.route(`${base.path}/${API_VERSION}`, platform);
  app.route(`${base.path}/${TWILIO_API_VERSION}`, twilioDialect(platform, base.path));
  app.route(`${base.path}/sim`, sim);
  app.route(designerPath, designer.app);
  if (options.console) {
    const accounts = options.store.accounts;
    mountConsole(app, options.console, {
      ...base,
      accounts,
      limiter,
      dispatch: async (req) => app.fetch(req),
    });
  }

  const handle = <E extends Env>(err: unknown, c: Context<E>) => {
    // A client that hung up mid-request is no server fault; nobody reads this answer.
    if (isClientAbort(c as unknown as Context)) {
      options.ops?.log?.debug({ method: c.req.method, path: c.req.path }, 'client aborted the request');
      return c.body(null, 499 as never);
    }
    if (err instanceof ApiError)
      return (err as { problems?: unknown }).problems ? designerError(err, c) : errorResponse(c, err);
    if (err instanceof StoreUnavailableError) return storeUnavailable(c, err.message);
    if (err instanceof CallControlError) {
      return errorResponse(
        c,
        new ApiError(STATUS_OF_CONTROL_ERROR[err.code], err.code, err.message, err.parameter),
        // A draining server: another node (or this one, restarted) takes the call soon.
        err.code === 'unavailable' ? { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) } : undefined,
      );
    }
    onError(err);
    return errorResponse(c, new ApiError(500, 'internal-error', 'internal server error'));
  };
  app.use(`${base.path}/callqueue/*`, async (_c, next) => {
    await restored;
    return next();
  });
  callQueue.app.onError(handle);
  app.route(`${base.path}/callqueue`, callQueue.app);
  app.onError(handle);
  platform.onError(handle);
  sim.onError(handle);
  designer.app.onError(handle);
  mountOpenApi(app, base.path, () => base.full || undefined, CATALOGUED_AREAS);
  mountHome(app, { ...base, console: options.console !== undefined });
  const allowed = methodsAllowed(app);
  app.notFound((c) => {
    const enterprise = enterpriseNotFound(c, base.path);
    if (enterprise) return enterprise;
    const methods = allowed(c.req.path);
    if (methods.length > 0) {
      const message = `${c.req.method} is not allowed on ${c.req.path}; allowed: ${methods.join(', ')}`;
      return errorResponse(c, new ApiError(405, 'method-not-allowed', message), {
        Allow: methods.join(', '),
      });
    }
    return errorResponse(c, new ApiError(404, 'not-found', `no resource at ${c.req.method} ${c.req.path}`));
  });
  return app;
}
