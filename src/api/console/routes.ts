/**
 * The web console at `{base_url}/console`: its page and assets, login, logout and the session,
 * the live stream, call timelines, designer graphs, and the REST calls the page makes.
 */
import type { Context, Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { AccountRepository } from '../../store/ports.js';
import { tokenMatches } from '../http/auth.js';
import { ApiError, badParameter, errorResponse } from '../http/errors.js';
import { type ConsoleAssets, defaultAssetsDir, loadAssets } from './assets.js';
import { type ConsoleDeps, checkOrigin, consolePath, SESSION_COOKIE, sessionOf } from './context.js';
import type { ConsoleFeed, ConsoleRelay } from './feed.js';
import { createLoginLimit, type LoginLimitOptions, LoginRefused } from './login-limit.js';
import { registerConsoleProxy } from './proxy.js';
import type { ServedProjects } from './served-projects.js';
import { createSessionStore, type SessionOptions } from './sessions.js';
import { registerConsoleStream } from './stream.js';

/** Options of the console (`AppOptions.console`). */
export interface ConsoleOptions {
  /** The engine's feed (see `createConsoleFeed`); without it live views answer 501. */
  feed?: ConsoleFeed;
  /** Projects the server runs from a file (`rcml serve --project`), listed and drawn too. */
  projects?: ServedProjects;
  /** In a cluster: shares the feed's live messages with the other nodes' consoles. */
  relay?: ConsoleRelay;
  /** Directory of the built front end. Default: dist/console of this package. */
  assetsDir?: string;
  /** Session expiry and limits. */
  sessions?: SessionOptions;
  /** Failed logins allowed per account sid (default 10 a minute; the sessions' clock). */
  logins?: LoginLimitOptions;
}

/** Headers of the console's page: nothing from elsewhere, never framed, no referrer. */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const LOGIN_FIELDS = 'expected a JSON body {"accountSid": "AC...", "authToken": "..."}';

async function loginFields(c: Context): Promise<{ accountSid: string; authToken: string }> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, 'malformed-body', `the login body is not JSON: ${LOGIN_FIELDS}`);
  }
  const fields = (body ?? {}) as Record<string, unknown>;
  for (const name of ['accountSid', 'authToken']) {
    if (typeof fields[name] !== 'string' || fields[name] === '') {
      throw badParameter(name, `is required: ${LOGIN_FIELDS}`);
    }
  }
  return { accountSid: fields.accountSid as string, authToken: fields.authToken as string };
}

async function authenticate(accounts: AccountRepository, accountSid: string, authToken: string) {
  const account = await accounts.get(accountSid);
  if (!tokenMatches(account, authToken))
    throw new ApiError(401, 'unauthorized', 'wrong account sid or auth token');
  // The console's requests go through the API, which refuses such an account: so does its login.
  const status = account?.status ?? 'active';
  if (status !== 'active')
    throw new ApiError(403, 'account-not-active', `account ${accountSid} is ${status}`);
  return account;
}

function registerPage(app: Hono, deps: ConsoleDeps, assets: ConsoleAssets | undefined): void {
  const path = consolePath(deps);
  app.get(path, (c) => c.redirect(`${path}/`, 308));
  app.get(`${path}/`, (c) => {
    if (!assets) {
      throw new ApiError(503, 'unavailable', "the console's front end is not built: run npm run build");
    }
    return c.html(assets.index, 200, { ...PAGE_HEADERS, 'Cache-Control': 'no-cache' });
  });
  app.get(`${path}/assets/:name`, (c) => {
    const file = assets?.files.get(c.req.param('name'));
    if (!file) throw new ApiError(404, 'not-found', `no console asset ${c.req.param('name')}`);
    // Names carry their content's hash: a new build gets new names.
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': file.type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });
}

function registerSessionRoutes(app: Hono, deps: ConsoleDeps, limits: LoginLimitOptions): void {
  const logins = createLoginLimit(limits);
  const api = `${consolePath(deps)}/api`;
  const cookie = {
    path: consolePath(deps),
    httpOnly: true,
    sameSite: 'Strict',
    secure: deps.secure,
  } as const;
  const sessionJson = (s: { accountSid: string; csrf: string; expiresAt: number }) => ({
    accountSid: s.accountSid,
    csrfToken: s.csrf,
    expiresAt: new Date(s.expiresAt).toISOString(),
  });

  app.post(`${api}/login`, async (c) => {
    checkOrigin(c, deps);
    // Credentials come in the body only: a URL (query string) would land in logs and history.
    if (new URL(c.req.url).search !== '')
      throw badParameter('query', 'credentials go in the body, not the URL');
    const { accountSid, authToken } = await loginFields(c);
    try {
      logins.check(accountSid);
      await authenticate(deps.accounts, accountSid, authToken);
    } catch (err) {
      if (err instanceof LoginRefused) {
        return errorResponse(c, err, { 'Retry-After': String(err.retryAfterSeconds) });
      }
      if (err instanceof ApiError && err.status === 401) logins.failed(accountSid);
      throw err;
    }
    logins.succeeded(accountSid);
    // A login counts against the account's request rate: logging in over and over is as
    // limited as any other request of the account.
    const verdict = deps.limiter?.take(accountSid);
    if (verdict && !verdict.ok) {
      const message = `too many requests for account ${accountSid}: retry after ${verdict.retryAfterSeconds} s`;
      return errorResponse(c, new ApiError(429, 'too-many-requests', message), {
        'Retry-After': String(verdict.retryAfterSeconds),
      });
    }
    const { id, session } = deps.sessions.create(accountSid, authToken);
    setCookie(c, SESSION_COOKIE, id, cookie);
    return c.json(sessionJson(session));
  });

  app.post(`${api}/logout`, (c) => {
    const { id } = sessionOf(c, deps);
    deps.sessions.destroy(id);
    deleteCookie(c, SESSION_COOKIE, { path: cookie.path });
    return c.body(null, 204);
  });

  app.get(`${api}/session`, (c) => c.json(sessionJson(sessionOf(c, deps).session)));
}

/** Mounts the console on the app; `dispatch` answers a request as the whole app would. */
export function mountConsole(
  app: Hono,
  options: ConsoleOptions,
  base: {
    path: string;
    full: string;
    accounts: AccountRepository;
    dispatch: ConsoleDeps['dispatch'];
    limiter?: ConsoleDeps['limiter'];
  },
): void {
  const deps: ConsoleDeps = {
    basePath: base.path,
    accounts: base.accounts,
    sessions: createSessionStore(options.sessions),
    feed: options.feed,
    projects: options.projects,
    dispatch: base.dispatch,
    secure: base.full.startsWith('https:'),
    origin: base.full ? new URL(base.full).origin : undefined,
    limiter: base.limiter,
  };
  registerPage(app, deps, loadAssets(options.assetsDir ?? defaultAssetsDir()));
  registerSessionRoutes(app, deps, { now: options.sessions?.now, ...options.logins });
  registerConsoleStream(app, deps);
  registerConsoleProxy(app, deps);
  app.all(`${consolePath(deps)}/api/*`, (c) =>
    errorResponse(c, new ApiError(404, 'not-found', `no console resource at ${c.req.method} ${c.req.path}`)),
  );
}
