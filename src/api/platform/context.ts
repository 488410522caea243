import type { Context } from 'hono';
import type { Store } from '../../store/ports.js';
import type { AuthVariables } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { ListCache } from '../http/list-cache.js';
import type { CallControl } from './call-control.js';

/** Hono environment of the platform routes. */
export type PlatformEnv = { Variables: AuthVariables };

/** What the platform routes adapt. */
export interface PlatformDeps {
  store: Store;
  callControl?: CallControl;
  /** `{base_url}` as given (empty when routes are at the root of an unnamed host). */
  baseUrl?: string;
  /** Told of a rename before it is stored (the designer keeps names unique; may throw a 409). */
  applicationRenamed?: (accountSid: string, sid: string, name: string) => Promise<void>;
  /** `{base_url}/platform/2012-04-24`, where recording files are served. */
  fileBase: string;
  /** Told after a client was created, changed or deleted (the SIP registrar's directory reloads). */
  clientsChanged?: () => Promise<void>;
  /** Rendered Calls list pages, when the store versions its calls. */
  listCache?: ListCache;
  /** Where a client is registered now (SIP), if it is: shown on the Clients resource. */
  registrationOf?: (accountSid: string, login: string) => ClientRegistration | undefined;
}

/** A client's live SIP registration: its Contact, where it registered from, since and until when. */
export interface ClientRegistration {
  contact: string;
  /** `address:port` its REGISTER came from. */
  source: string;
  /** ms since the epoch. */
  since: number;
  expires: number;
}

/**
 * The authenticated account's sid; 403 when the path names another account (as the platform
 * answers valid credentials used on a path they do not own).
 */
export function accountOf(c: Context<PlatformEnv>): string {
  const sid = c.req.param('accountSid');
  const account = c.get('account');
  if (sid !== account.sid) {
    throw new ApiError(
      403,
      'forbidden',
      `the credentials of ${account.sid} give no access to account ${sid ?? ''}`,
    );
  }
  return account.sid;
}

/** The call engine, or a 501 saying none is attached. */
export function controlOf(deps: PlatformDeps): CallControl {
  if (!deps.callControl) {
    throw new ApiError(
      501,
      'no-call-engine',
      'this server runs without a call engine: call operations are unavailable',
    );
  }
  return deps.callControl;
}

/** The three spellings of a list path: no suffix, `.json`, `.xml`. */
export const withFormats = (path: string) => [path, `${path}.json`, `${path}.xml`];

/** The format a list path asks for (no suffix: XML, as the platform answers). */
export const formatOfPath = (path: string) => (path.endsWith('.json') ? 'json' : 'xml');
