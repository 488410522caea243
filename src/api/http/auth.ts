import type { Context, MiddlewareHandler } from 'hono';
import { authTokenMatches } from '../../store/credentials.js';
import type { AccountRepository } from '../../store/ports.js';
import type { AccountRecord } from '../../store/types.js';
import { ApiError, errorResponse } from './errors.js';

/** Hono variables set by {@link basicAuth}. */
export interface AuthVariables {
  account: AccountRecord;
}

/** Parses `Authorization: Basic base64(sid:token)`; undefined when missing or malformed. */
export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!m) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** Checks a token against the account's stored hash in constant time. */
export const tokenMatches = authTokenMatches;

function unauthorized(c: Context, message: string): Response {
  return errorResponse(c, new ApiError(401, 'unauthorized', message), {
    'WWW-Authenticate': 'Basic realm="rcml"',
  });
}

/** 403 `account-not-active` (code 20005) for a suspended or closed account, else undefined. */
export function inactive(c: Context, account: AccountRecord): Response | undefined {
  const status = account.status ?? 'active';
  if (status === 'active') return undefined;
  return errorResponse(c, new ApiError(403, 'account-not-active', `account ${account.sid} is ${status}`));
}

/**
 * HTTP Basic authentication of an account (`AccountSid:AuthToken`). Sets `account`; answers 401
 * when the credentials are missing or wrong. `skip` lets a route go unauthenticated.
 */
export function basicAuth(
  accounts: AccountRepository,
  skip: (method: string, path: string) => boolean = () => false,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    if (skip(c.req.method, c.req.path)) return next();
    const credentials = parseBasic(c.req.header('Authorization'));
    if (!credentials) return unauthorized(c, 'HTTP Basic credentials (AccountSid:AuthToken) are required');
    // Already authenticated by the request limiter (see limitRequests), which sets it only then.
    const known = c.get('account');
    if (known?.sid === credentials.user) return inactive(c, known) ?? next();
    const account = await accounts.get(credentials.user);
    if (!tokenMatches(account, credentials.password))
      return unauthorized(c, 'wrong account sid or auth token');
    const refused = inactive(c, account as AccountRecord);
    if (refused) return refused;
    c.set('account', account as AccountRecord);
    return next();
  };
}
