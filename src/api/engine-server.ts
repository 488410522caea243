/**
 * The whole platform server: a call engine whose records land in a store, the REST app driving
 * it through {@link createEngineControl}, and an orderly shutdown.
 */
import type { Hono } from 'hono';
import { createEngine, type Engine } from '../engine/engine.js';
import { API_VERSION, type RecordSink } from '../engine/records.js';
import type { EngineEventListener } from '../engine/types.js';
import type { Store } from '../store/ports.js';
import { randomSid } from '../store/sid.js';
import { createStoreSink, type StoreSink } from '../store/sink.js';
import { storedSidDigits } from '../store/stored-sids.js';
import { createApp } from './app.js';
import { type ConsoleFeed, createConsoleFeed } from './console/feed.js';
import { createServedProjects, type ServedProjects } from './console/served-projects.js';
import type { DesignerService } from './designer/service.js';
import { appOptions, closeOwned, designerOf, type EngineAppOptions } from './engine-app-options.js';
import { createEngineControl } from './engine-control.js';
import { basePathOf, isAbsoluteUrl, lateBaseApp } from './late-base.js';
import { createLiveCallCounter, type LiveCallCounter, limitLiveCalls } from './live-call-limit.js';
import {
  createCallObserver,
  createDrainState,
  type DrainState,
  gateNewCalls,
  readinessOf,
  untilNoLiveCalls,
} from './ops/index.js';
import type { CallControl } from './platform/call-control.js';
import { type HttpLimits, startServer, type TlsOptions } from './server.js';
import { signingKeysOf } from './signing-keys.js';

export type { AccountLimits, EngineAppOptions, ServerEngineOptions } from './engine-app-options.js';

/** A REST app wired to its own engine, for embedding in any server. */
export interface EngineApp {
  app: Hono;
  engine: Engine;
  callControl: CallControl;
  /** The Visual Designer service, whose controller the engine runs in process. */
  designer: DesignerService;
  /** Projects run from a file that the console lists (give it to `serveDesignerProject`). */
  servedProjects?: ServedProjects;
  /** `{base_url}` of links and recording URLs; undefined until known (see `setBaseUrl`). */
  readonly baseUrl: string | undefined;
  /**
   * Sets `{base_url}` when `createEngineApp` was given none or only a path, e.g. once
   * `listen()` picked a port. Without it, the first request's origin is taken. Throws once set.
   */
  setBaseUrl(baseUrl: string): void;
  /** Ends live calls (their final records are written), then closes the store. */
  close(): Promise<void>;
  /** Refuses new calls and waits for the live ones (see {@link EngineServer.drain}). */
  drain(deadline: Promise<unknown>): Promise<void>;
}

/** A listening server wired to its own engine. */
export interface EngineServer {
  /** `http://host:port` actually bound. */
  url: string;
  port: number;
  /** `{base_url}` of links and recording URLs. */
  baseUrl: string;
  engine: Engine;
  callControl: CallControl;
  /** The Visual Designer service, whose controller the engine runs in process. */
  designer: DesignerService;
  /** Projects run from a file that the console lists (give it to `serveDesignerProject`). */
  servedProjects?: ServedProjects;
  /** Closes the engine (ending live calls; `graceMs`: see `Engine.close`), then the server, then the store. */
  close(options?: { graceMs?: number }): Promise<void>;
  /**
   * Refuses new calls from now on (503, code 20503; `/ready` fails `accepting-calls`) and
   * resolves once no call is live or `deadline` settles. `close()` then ends the rest.
   */
  drain(deadline: Promise<unknown>): Promise<void>;
}

/** Where the platform serves a recording's audio. */
export function recordingFileUrl(baseUrl: string, accountSid: string, recordingSid: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/platform/${API_VERSION}/Accounts/${accountSid}/Recordings/${recordingSid}.wav`;
}

// Notifications reported after a call ended name the engine's account; the call's own is
// remembered for a while so they land with the call's account.
const REMEMBERED_CALLS = 10_000;

function accountAwareSink(
  store: Store,
  engineAccount: () => string,
  onError: ((err: unknown) => void) | undefined,
): RecordSink & Pick<StoreSink, 'settled' | 'written'> {
  const base = createStoreSink(store, onError);
  const owners = new Map<string, string>();
  return {
    ...base,
    call(call) {
      if (call.accountSid !== engineAccount() && !owners.has(call.sid)) {
        owners.set(call.sid, call.accountSid);
        if (owners.size > REMEMBERED_CALLS) owners.delete(owners.keys().next().value as string);
      }
      base.call?.(call);
    },
    notification(n) {
      const owner = n.callSid === undefined ? undefined : owners.get(n.callSid);
      base.notification?.(owner && owner !== n.accountSid ? { ...n, accountSid: owner } : n);
    },
  };
}

/** Both listeners, in order. */
function tee(first: EngineEventListener, second: EngineEventListener | undefined): EngineEventListener {
  return second
    ? (event) => {
        first(event);
        second(event);
      }
    : first;
}

/**
 * Notification code of records dropped because the store could not write and its queue was
 * full (numeric, as every notification's; docs/engine.md "Notification codes").
 */
export const STORE_OVERFLOW_CODE = '12402';

/** An engine writing to the store, and how to wait until its writes have landed. */
interface StoredEngine {
  engine: Engine;
  /** Resolves once the call's latest record is committed (see `StoreSink.written`). */
  written(callSid: string): Promise<void>;
  /** Ends live calls, then waits for every record write (the store may then be closed). */
  close(options?: { graceMs?: number }): Promise<void>;
  /** Live calls per account, when their number is limited. */
  liveCalls?: LiveCallCounter;
  /** What the web console streams, when it is served. */
  feed?: ConsoleFeed;
  /** Projects run from a file, for the console (when it is served). */
  projects?: ServedProjects;
}

/** The engine's call control, held to the account limits and closed to new calls while draining. */
function controlOf(options: EngineAppOptions, stored: StoredEngine, drainState: DrainState): CallControl {
  const control = createEngineControl(stored.engine, {
    store: options.store,
    committed: stored.written,
    sharedSimulation: options.sharedSimulation,
  });
  const max = options.accountLimits?.maxLiveCalls;
  const limited =
    stored.liveCalls && max !== undefined ? limitLiveCalls(control, stored.liveCalls, max) : control;
  return gateNewCalls(limited, drainState);
}

async function buildEngine(options: EngineAppOptions, baseUrl: () => string): Promise<StoredEngine> {
  const virtual = options.clock === 'virtual';
  const accountSid = options.accountSid ?? (await options.store.accounts.list())[0]?.sid;
  const stored = accountAwareSink(options.store, () => engine.accountSid, options.onError);
  const maxLiveCalls = options.accountLimits?.maxLiveCalls;
  if (maxLiveCalls !== undefined && (!Number.isInteger(maxLiveCalls) || maxLiveCalls < 1)) {
    throw new Error(`accountLimits.maxLiveCalls must be a whole number >= 1, got ${maxLiveCalls}`);
  }
  const liveCalls = maxLiveCalls === undefined ? undefined : createLiveCallCounter();
  if (liveCalls) {
    const storeCall = stored.call;
    stored.call = (call) => {
      liveCalls.observe(call);
      storeCall?.(call);
    };
  }
  const ops = options.ops;
  const observer = ops?.metrics || ops?.log ? createCallObserver(ops) : undefined;
  const feed = options.console === false ? undefined : createConsoleFeed({}, options.console?.relay);
  const observed = observer ? observer.wrapSink(stored) : stored;
  const sink = feed ? feed.wrapSink(observed) : observed;
  const userListener = feed ? tee(feed.onEvent, options.engine?.onEvent) : options.engine?.onEvent;
  const onEvent =
    observer && userListener
      ? (event: Parameters<typeof userListener>[0]) => {
          observer.onEvent(event);
          userListener(event);
        }
      : (observer?.onEvent ?? userListener);
  // A seeded run over records an earlier run stored draws past their sids instead of reusing them.
  const seeded = virtual && options.seed !== undefined;
  const taken = seeded ? await storedSidDigits(options.store) : undefined;
  const engine: Engine = createEngine({
    ...options.engine,
    onEvent,
    clock: virtual ? 'virtual' : 'real',
    seed: virtual ? options.seed : undefined,
    sidTaken: taken && taken.size > 0 ? (sid) => taken.has(sid.slice(2)) : undefined,
    epoch: virtual ? (options.epoch ?? Math.floor(Date.now() / 1000) * 1000) : undefined,
    accountSid,
    sink,
    // The store keeps ended calls; the engine need not.
    retainCalls: false,
    // Dial legs are live calls too: none past the account's limit.
    liveCallRoom:
      liveCalls && maxLiveCalls !== undefined ? (sid) => maxLiveCalls - liveCalls.count(sid) : undefined,
    // Every request to a customer URL is signed with its account's key, read from the store
    // each time, so a new key applies at once; the last one read serves while it cannot answer.
    http: {
      ...options.engine?.http,
      signingKey: options.engine?.http?.signingKey ?? signingKeysOf(options.store.accounts),
    },
    settings: {
      ...options.engine?.settings,
      recordingUrl: (accountSid, sid) => recordingFileUrl(baseUrl(), accountSid, sid),
    },
  });
  ops?.metrics?.watchLiveCalls(engine);
  const metrics = ops?.metrics;
  const stopBatches =
    metrics && options.store.writes?.onBatch((b) => metrics.storeWrite(b.ms / 1000, b.size));
  for (const [number, config] of Object.entries(options.numbers ?? {})) engine.setNumber(number, config);
  // Records dropped while the store could not write are told in a notification too (written
  // once the store recovers), not only in the log.
  const stopOverflow = options.store.writes?.onOverflow((dropped) => {
    sink.notification?.({
      sid: randomSid('NO'),
      accountSid: engine.accountSid,
      code: STORE_OVERFLOW_CODE,
      log: 0,
      message: `rcml.store-overflow: the store could not write and its queue was full: records dropped (${dropped} so far)`,
      dateCreated: engine.now(),
    });
  });
  const close = async (closeOptions: { graceMs?: number } = {}) => {
    stopOverflow?.();
    stopBatches?.();
    try {
      await engine.close(closeOptions);
    } finally {
      feed?.close();
      await sink.settled();
    }
  };
  const projects = feed ? createServedProjects() : undefined;
  return { engine, close, liveCalls, feed, projects, written: (callSid) => stored.written(callSid) };
}

/**
 * Builds the REST app over a new engine: calls placed through it run on the engine and their
 * calls, recordings (with WAV files), gathers and notifications land in the store. `baseUrl`
 * may be left out or be a path (`/rcml`) when the origin is not known yet: set it with
 * `setBaseUrl` after `listen()`, or the first request's origin is taken.
 */
export async function createEngineApp(options: EngineAppOptions & { baseUrl?: string }): Promise<EngineApp> {
  const given = options.baseUrl;
  const basePath = basePathOf(given); // refuses a base that is neither URL nor path, first
  let baseUrl = isAbsoluteUrl(given) ? given : undefined;
  const stored = await buildEngine(options, () => baseUrl ?? '');
  const { engine } = stored;
  const readiness = readinessOf(options.ops, options.store);
  const drainState = createDrainState(readiness);
  const callControl = controlOf(options, stored, drainState);
  const designer = designerOf(options, engine);
  const build = (url: string) => {
    baseUrl = url;
    designer.attach(url);
    return createApp({
      ...appOptions(options, engine, callControl, designer, readiness, stored.feed, stored.projects),
      baseUrl: url,
    });
  };
  const late = baseUrl === undefined ? lateBaseApp(basePath, build) : undefined;
  const app = late ? late.app : build(baseUrl as string);
  let closing: Promise<void> | undefined;
  const close = async () => {
    try {
      await stored.close();
    } finally {
      await closeOwned(options, designer);
    }
  };
  return {
    app,
    engine,
    callControl,
    designer,
    servedProjects: stored.projects,
    get baseUrl() {
      return baseUrl;
    },
    setBaseUrl: (url) => {
      if (!late) throw new Error(`the base URL is already ${baseUrl}`);
      late.setBaseUrl(url);
    },
    close: () => {
      closing ??= close();
      return closing;
    },
    drain: (deadline) => {
      drainState.start();
      return untilNoLiveCalls(engine, deadline);
    },
  };
}

/** Options of {@link startEngineServer}. */
export interface EngineServerOptions extends EngineAppOptions {
  /** Default `127.0.0.1`. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** `{base_url}`; default `http://{host}:{port}` (`https://` with `tls`). */
  baseUrl?: string;
  /** Connection and timeout limits of the HTTP server. */
  limits?: HttpLimits;
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: TlsOptions;
}

/** Serves the REST API over a new engine with @hono/node-server (see {@link createEngineApp}). */
export async function startEngineServer(options: EngineServerOptions): Promise<EngineServer> {
  let baseUrl = options.baseUrl ?? '';
  const stored = await buildEngine(options, () => baseUrl);
  const { engine } = stored;
  const readiness = readinessOf(options.ops, options.store);
  const drainState = createDrainState(readiness);
  const callControl = controlOf(options, stored, drainState);
  const designer = designerOf(options, engine);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      ...appOptions(options, engine, callControl, designer, readiness, stored.feed, stored.projects),
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      baseUrl: options.baseUrl,
      limits: options.limits,
      tls: options.tls,
    });
  } catch (err) {
    await stored.close();
    await designer.close();
    throw err;
  }
  baseUrl ||= server.url;
  designer.attach(baseUrl);
  let closing: Promise<void> | undefined;
  const close = async (closeOptions: { graceMs?: number } = {}) => {
    try {
      await stored.close(closeOptions);
    } finally {
      try {
        await server.close();
      } finally {
        await closeOwned(options, designer);
      }
    }
  };
  return {
    url: server.url,
    port: server.port,
    baseUrl,
    engine,
    callControl,
    designer,
    servedProjects: stored.projects,
    close: (closeOptions) => {
      closing ??= close(closeOptions);
      return closing;
    },
    drain: (deadline) => {
      drainState.start();
      return untilNoLiveCalls(engine, deadline);
    },
  };
}
