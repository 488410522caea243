import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { authTokenMatches, hashAuthToken, newAccount } from '../store/credentials.js';
import type { Store } from '../store/ports.js';
import { ACCOUNT_SID_PATTERN, randomSid } from '../store/sid.js';
import type { AccountRecord } from '../store/types.js';
import { type AppOptions, type CallQueueAppOptions, createApp } from './app.js';
import type { ConsoleOptions } from './console/routes.js';
import type { DesignerService } from './designer/service.js';
import type { EnterpriseAreaOptions } from './enterprise/mount.js';
import type { RateLimitOptions } from './http/rate-limit.js';
import type { OpsOptions } from './ops/index.js';
import type { CallControl } from './platform/call-control.js';
import type { PlatformDeps } from './platform/context.js';

/** The account a server authenticates, and whether it was just created. */
export interface EnsuredAccount {
  account: AccountRecord;
  created: boolean;
  /**
   * The auth token, when this call issued it (a new account without a given token): the only
   * time it is known, since the store keeps only its hash.
   */
  authToken?: string;
}

/**
 * Makes sure the store has the account to serve. Given a sid and token, that account is created
 * or its token replaced when it is not the given one; given neither, the oldest account is used,
 * or one is created with a random token (returned once, in `authToken`).
 */
export async function ensureAccount(
  store: Store,
  given: { sid?: string; authToken?: string },
  now: () => number = Date.now,
): Promise<EnsuredAccount> {
  if ((given.sid === undefined) !== (given.authToken === undefined)) {
    throw new Error('give both the account sid and the auth token, or neither');
  }
  if (given.sid !== undefined && given.authToken !== undefined) {
    if (!ACCOUNT_SID_PATTERN.test(given.sid))
      throw new Error(`account sid must be AC followed by 32 hex digits, got ${given.sid}`);
    if (given.authToken.length < 8) throw new Error('auth token must be at least 8 characters');
    const existing = await store.accounts.get(given.sid);
    if (existing && authTokenMatches(existing, given.authToken)) return { account: existing, created: false };
    const account: AccountRecord = existing
      ? { ...existing, authTokenHash: hashAuthToken(given.authToken), dateUpdated: now() }
      : newAccount(given.sid, { friendlyName: 'Default account', now: now(), authToken: given.authToken })
          .account;
    await store.accounts.put(account);
    return { account, created: !existing };
  }
  const first = (await store.accounts.list())[0];
  if (first) return { account: first, created: false };
  const { account, authToken } = newAccount(randomSid('AC'), { friendlyName: 'Default account', now: now() });
  await store.accounts.put(account);
  return { account, created: true, authToken };
}

/** Options of {@link startServer}. */
export interface ServerOptions {
  store: Store;
  /** Where a client is registered now (SIP), shown on the Clients resource. */
  registrationOf?: PlatformDeps['registrationOf'];
  /** The call engine; without it, call operations answer 501. */
  callControl?: CallControl;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** `{base_url}`; default `http://{host}:{port}` (`https://` with `tls`). */
  baseUrl?: string;
  maxBodyBytes?: number;
  /** Told of unexpected errors (answered 500). Default: written to stderr. */
  onError?: (err: unknown) => void;
  /** The Call Queuing product (see `AppOptions.callQueue`). */
  callQueue?: CallQueueAppOptions;
  /** The Visual Designer service. Default: one over an in-memory store. */
  designer?: DesignerService;
  /** The enterprise areas' store and settings (see `createApp`). */
  enterprise?: EnterpriseAreaOptions;
  /** Health, readiness, metrics and logging hooks (see `createApp`). */
  ops?: OpsOptions;
  /** Connection and timeout limits of the HTTP server. */
  limits?: HttpLimits;
  /** Requests per second of each account (see `AppOptions.rateLimit`). Default: no limit. */
  rateLimit?: RateLimitOptions;
  /** Failed authentications per source address (see `AppOptions.authFailures`). Default 100 a minute. */
  authFailures?: AppOptions['authFailures'];
  /** Serve HTTPS with this certificate and private key (PEM); default plain HTTP. */
  tls?: TlsOptions;
  /** The web console (see `AppOptions.console`). Default: none. */
  console?: ConsoleOptions;
  /** In a cluster: who owns each live call (see `AppOptions.callOwners`). */
  callOwners?: AppOptions['callOwners'];
}

/** A certificate (chain) and its private key, PEM text or bytes. */
export interface TlsOptions {
  cert: string | Buffer;
  key: string | Buffer;
}

/** Limits of the HTTP server; each unset one keeps its default. */
export interface HttpLimits {
  /** Most open connections; more are refused. Default 10000. */
  maxConnections?: number;
  /** Most time to receive a whole request, ms (0: none). Default 120000. */
  requestTimeoutMs?: number;
  /** Most time to receive a request's headers, ms. Default 60000. */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, ms. Default 5000. */
  keepAliveTimeoutMs?: number;
}

/** Defaults of {@link HttpLimits}. */
export const DEFAULT_HTTP_LIMITS: Required<HttpLimits> = {
  maxConnections: 10_000,
  requestTimeoutMs: 120_000,
  headersTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
};

/** A running server. */
export interface RunningServer {
  /** `http://host:port` (or `https://`) actually bound. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves {@link createApp} over HTTP with @hono/node-server. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  let baseUrl = options.baseUrl;
  // The base URL may depend on the port picked, so the app is built once the port is known.
  let app: ReturnType<typeof createApp> | undefined;
  const limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  // Node's request goes along as the env: it tells the source address (see limitAuthFailures).
  const fetch = (req: Request, env?: unknown) => (app as ReturnType<typeof createApp>).fetch(req, env);
  const serverOptions = {
    // Node requires the headers timeout to be no longer than the request timeout.
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout:
      limits.requestTimeoutMs > 0
        ? Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs)
        : limits.headersTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };
  const server = options.tls
    ? serve({
        fetch,
        hostname: options.host,
        port: options.port,
        createServer: createHttpsServer,
        serverOptions: { ...serverOptions, cert: options.tls.cert, key: options.tls.key },
      })
    : serve({ fetch, hostname: options.host, port: options.port, serverOptions });
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${options.tls ? 'https' : 'http'}://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  baseUrl ??= url;
  app = createApp({
    store: options.store,
    callControl: options.callControl,
    designer: options.designer,
    baseUrl,
    maxBodyBytes: options.maxBodyBytes,
    onError: options.onError,
    callQueue: options.callQueue,
    enterprise: options.enterprise,
    ops: options.ops,
    rateLimit: options.rateLimit,
    authFailures: options.authFailures,
    console: options.console,
    callOwners: options.callOwners,
    registrationOf: options.registrationOf,
  });
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
