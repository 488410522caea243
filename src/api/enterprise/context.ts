import type { Context } from 'hono';
import type { EnterpriseStore } from '../../store/enterprise/ports.js';
import type { AaUserRecord, EnterpriseRecord } from '../../store/enterprise/types.js';
import type { SidFactory } from '../../store/sid.js';
import type { AuthVariables } from '../http/auth.js';
import { specError } from './errors.js';

/**
 * Hono environment of the enterprise areas: the authenticated platform account, and the Auto
 * Attendant user when one signed in with its e-mail and password.
 */
export type EnterpriseEnv = { Variables: AuthVariables & { user?: AaUserRecord } };

/** What the enterprise areas' routes work with. */
export interface EnterpriseDeps {
  store: EnterpriseStore;
  /** `{base_url}` as an absolute URL (for `url` fields), '' when unknown. */
  baseUrl: string;
  sids: SidFactory;
  now: () => number;
  /** scrypt cost parameter N of user passwords (a power of two). */
  scryptCost: number;
  /** Largest announcement WAV accepted, in bytes. */
  maxAudioBytes: number;
}

/** The authenticated platform account's sid. */
export const accountOf = (c: Context<EnterpriseEnv>) => c.get('account').sid;

/**
 * The account's enterprise, or error 467. Another account's enterprise reads as unknown,
 * except where the platform's API answers 505 (`otherAccount: '505'`).
 */
export async function enterpriseOf(
  deps: EnterpriseDeps,
  accountSid: string,
  sid: unknown,
  data: unknown,
  otherAccount?: '505',
): Promise<EnterpriseRecord> {
  const found = typeof sid === 'string' ? await deps.store.enterprises.get(accountSid, sid) : undefined;
  if (found) return found;
  if (otherAccount && typeof sid === 'string') {
    const owner = await deps.store.enterprises.ownerOf(sid);
    if (owner !== undefined && owner !== accountSid) throw specError('otherAdminAccount', data);
  }
  throw specError('enterpriseNotFound', data);
}
