/** What the console's routes share: their options, the session of a request, its checks. */
import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { AccountRepository } from '../../store/ports.js';
import { ApiError } from '../http/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { ConsoleFeed } from './feed.js';
import type { ServedProjects } from './served-projects.js';
import { type ConsoleSession, csrfMatches, type SessionStore } from './sessions.js';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'rcml_console';

/** What the console's routes work with. */
export interface ConsoleDeps {
  /** `{base_url}`'s path (routes live at `{basePath}/console`). */
  basePath: string;
  accounts: AccountRepository;
  sessions: SessionStore;
  /** The engine's live records and events; without it the stream and timelines answer 501. */
  feed?: ConsoleFeed;
  /** Projects run from a file (`rcml serve --project`), listed beside the designer's. */
  projects?: ServedProjects;
  /** Answers a request as the whole app would (the console's REST calls go through it). */
  dispatch: (request: Request) => Promise<Response>;
  /** Whether the cookie is marked `Secure` (an https base URL). */
  secure: boolean;
  /** The base URL's origin, also accepted as `Origin` (behind a proxy that rewrites `Host`). */
  origin?: string;
  /** The accounts' API request buckets: a login takes a token of its account's, as a request does. */
  limiter?: RateLimiter;
}

/** `{basePath}/console`. */
export const consolePath = (deps: ConsoleDeps) => `${deps.basePath}/console`;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for methods that change something (they need the CSRF token). */
export const isUnsafe = (method: string) => UNSAFE.has(method);

/**
 * Refuses a request sent from another origin: browsers send `Origin` on every POST (and on
 * cross-origin GETs of scripts); a page elsewhere cannot make one that matches.
 */
export function checkOrigin(c: Context, deps: ConsoleDeps): void {
  const origin = c.req.header('Origin');
  if (origin === undefined) return;
  const host = c.req.header('Host');
  const allowed = new Set([
    new URL(c.req.url).origin,
    ...(host ? [`http://${host}`, `https://${host}`] : []),
  ]);
  if (deps.origin) allowed.add(deps.origin);
  if (!allowed.has(origin)) throw new ApiError(403, 'forbidden', `requests from ${origin} are refused`);
}

/**
 * The request's session; 401 without a live one. A state-changing request must come from the
 * console's own origin and carry the session's CSRF token in `X-CSRF-Token` (403 otherwise).
 */
export function sessionOf(c: Context, deps: ConsoleDeps): { id: string; session: ConsoleSession } {
  const id = getCookie(c, SESSION_COOKIE);
  const session = deps.sessions.touch(id);
  if (!session || id === undefined) {
    if (id !== undefined) deleteCookie(c, SESSION_COOKIE, { path: consolePath(deps) });
    throw new ApiError(401, 'unauthorized', 'log in to the console first (no session, or it expired)');
  }
  if (isUnsafe(c.req.method)) {
    checkOrigin(c, deps);
    if (!csrfMatches(session, c.req.header('X-CSRF-Token'))) {
      throw new ApiError(403, 'forbidden', 'X-CSRF-Token is missing or does not match the session');
    }
  }
  return { id, session };
}
