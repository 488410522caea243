/**
 * Operating endpoints of the platform app: `GET /health` (the process answers), `GET /ready`
 * (every registered check passes; 503 naming the failing ones) and `GET /metrics` (Prometheus
 * text). None needs authentication and none reveals a secret.
 */

import type { Context, Hono } from 'hono';
import type { StoreWrites } from '../../store/ports.js';
import { declareRoute } from '../openapi/declare.js';
import type { Logger } from './log.js';
import type { PlatformMetrics } from './metrics.js';
import { getHealth, getMetrics, getReadiness } from './operations.js';
import { createReadiness, type Readiness } from './readiness.js';

export {
  createDrainState,
  DRAINING_CHECK,
  type DrainState,
  gateNewCalls,
  untilNoLiveCalls,
} from './drain.js';
export {
  createLogger,
  LOG_LEVELS,
  type LogFormat,
  type Logger,
  type LogLevel,
  type LogOptions,
} from './log.js';
export { createPlatformMetrics, type PlatformMetrics, type PlatformMetricsOptions } from './metrics.js';
export { type CallObserver, createCallObserver } from './observe.js';
export {
  type CheckResult,
  createReadiness,
  type Readiness,
  type ReadinessCheck,
  type ReadinessReport,
  redactUrls,
} from './readiness.js';

/** Operating hooks of `createApp`. */
export interface OpsOptions {
  /** Checks of `GET /ready`. Default: one, `store`, reading from the store. */
  readiness?: Readiness;
  /** When given, `GET /metrics` serves it and every HTTP request is counted. */
  metrics?: PlatformMetrics;
  /** Where a client's aborted request is noted (at debug level). */
  log?: Logger;
}

/** A sid no account has: reading it makes the store answer without returning anything. */
const PROBE_SID = `AC${'0'.repeat(32)}`;

/**
 * The `store` check: one read through the store's accounts, and, for a store with a write queue,
 * that it can write (a full disk or an I/O error makes it down while its writes wait).
 */
export function storeCheck(store: {
  accounts: { get(sid: string): Promise<unknown> };
  writes?: Pick<StoreWrites, 'state'>;
}): () => Promise<void> {
  return async () => {
    await store.accounts.get(PROBE_SID);
    const state = store.writes?.state();
    if (state && !state.writable) {
      throw new Error(
        `the store cannot write: ${state.error ?? 'unknown error'} (${state.queued} write(s) waiting)`,
      );
    }
  };
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Mounts the operating routes on `app` under `basePath` (and, first of all, the request counter
 * when metrics are on). Call it before any other route or middleware.
 */
export function mountOps(app: Hono, basePath: string, readiness: Readiness, metrics?: PlatformMetrics): void {
  if (metrics) {
    const unmatched = '/*';
    app.use('*', async (c, next) => {
      await next();
      const route = c.req.routePath;
      metrics.httpRequest(c.req.method, route === unmatched ? 'unmatched' : route, c.res.status);
    });
  }
  app.get(`${basePath}/health`, declareRoute(getHealth), (c) => c.json({ status: 'ok' }, 200, NO_STORE));
  app.get(`${basePath}/ready`, declareRoute(getReadiness), async (c) => {
    const report = await readiness.run();
    const checks = Object.fromEntries(
      report.checks.map((r) => [
        r.name,
        r.ok ? { ok: true, ms: r.ms } : { ok: false, ms: r.ms, error: r.error },
      ]),
    );
    if (report.ready) return c.json({ status: 'ready', checks }, 200, NO_STORE);
    const failing = report.checks.filter((r) => !r.ok).map((r) => r.name);
    return c.json({ status: 'unavailable', failing, checks }, 503, NO_STORE);
  });
  if (metrics) {
    app.get(`${basePath}/metrics`, declareRoute(getMetrics), async (c) => {
      const { body, contentType } = await metrics.scrape();
      return c.body(body, 200, { 'Content-Type': contentType, ...NO_STORE });
    });
  }
}

/** The readiness of {@link OpsOptions} (default a new one), with the store check unless it has one. */
export function readinessOf(ops: OpsOptions | undefined, store: Parameters<typeof storeCheck>[0]): Readiness {
  const readiness = ops?.readiness ?? createReadiness();
  if (!readiness.names().includes('store')) readiness.register('store', storeCheck(store));
  return readiness;
}

/** True when the client went away before its request was answered (not a server fault). */
export function isClientAbort(c: Context): boolean {
  // A body read off Node's request (see http/node-body.ts) fails with the request itself,
  // before any web signal was asked for.
  const incoming = (
    c.env as { incoming?: { errored?: unknown; destroyed?: boolean; readableEnded?: boolean } }
  )?.incoming;
  if (incoming && (incoming.errored || (incoming.destroyed === true && incoming.readableEnded === false))) {
    return true;
  }
  return c.req.raw.signal?.aborted === true;
}
