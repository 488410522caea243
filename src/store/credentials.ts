import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountRepository } from './ports.js';
import type { AccountRecord } from './types.js';

/**
 * Account secrets. The auth token is stored only as `hmac-sha256:<salt>:<digest>`: HMAC-SHA256
 * of the token keyed with 16 random bytes of its own (base64url). Tokens the platform issues are
 * 128 random bits, so a slow password hash would add nothing against guessing, and every API
 * request checks one: a keyed hash costs a microsecond where scrypt would cost tens of
 * milliseconds of CPU per request. The per-account key keeps two accounts with the same token
 * from having the same stored value and rules out precomputed tables.
 *
 * The signing key signs the platform's requests to the account's URLs; it has to be usable, so
 * it is stored as it is (whoever reads the database can forge those signatures, not act as the
 * account).
 */
const SCHEME = 'hmac-sha256';

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** A random auth token (32 hex digits, 128 bits). */
export function randomAuthToken(): string {
  return randomBytes(16).toString('hex');
}

/** A random signing key (32 hex digits, 128 bits), the same shape as a Twilio auth token. */
export function randomSigningKey(): string {
  return randomBytes(16).toString('hex');
}

/** The stored form of a token; `salt` (16 bytes) only to make fixtures reproducible. */
export function hashAuthToken(token: string, salt: Buffer = randomBytes(16)): string {
  return `${SCHEME}:${b64url(salt)}:${b64url(createHmac('sha256', salt).update(token, 'utf8').digest())}`;
}

/** Compared against when there is no account, so timing does not reveal which sids exist. */
const ABSENT = hashAuthToken('absent-account-token', Buffer.alloc(16));

/**
 * Tokens already found to match a stored value, by that value: every API request presents its
 * account's token, and comparing it with the one that matched before costs a fraction of the
 * keyed hash. Memory only, bounded; a rotated token has another stored value, so it is hashed
 * again (and the old entry ages out).
 */
const verified = new Map<string, Buffer>();
const MAX_VERIFIED = 10_000;
const NOT_VERIFIED = Buffer.alloc(32);

/**
 * Whether `token` is the account's auth token, in time independent of where they differ (and of
 * whether the account exists). A stored value in an unknown scheme matches nothing.
 */
export function authTokenMatches(account: AccountRecord | undefined, token: string): boolean {
  const stored = account?.authTokenHash ?? ABSENT;
  const known = account === undefined ? undefined : verified.get(stored);
  // Compared even with nothing known (against a stand-in), so that timing tells no more.
  const against = known ?? NOT_VERIFIED;
  const given = Buffer.from(token, 'utf8');
  // Of another length it is no match either; it is hashed below, as any other token is.
  if (given.length === against.length && timingSafeEqual(given, against) && known !== undefined) return true;
  const [scheme, salt, digest] = stored.split(':');
  const expected = Buffer.from(digest ?? '', 'base64url');
  const actual = createHmac('sha256', Buffer.from(salt ?? '', 'base64url'))
    .update(token, 'utf8')
    .digest();
  const same = expected.length === actual.length && timingSafeEqual(expected, actual);
  const matches = same && scheme === SCHEME && account !== undefined;
  if (matches) {
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
    verified.set(stored, given);
  }
  return matches;
}

/** A new account record with fresh secrets; the token is returned once, beside the record. */
export function newAccount(
  sid: string,
  fields: { friendlyName: string; now: number; authToken?: string },
): { account: AccountRecord; authToken: string } {
  const authToken = fields.authToken ?? randomAuthToken();
  return {
    account: {
      sid,
      authTokenHash: hashAuthToken(authToken),
      signingKey: randomSigningKey(),
      friendlyName: fields.friendlyName,
      dateCreated: fields.now,
      dateUpdated: fields.now,
    },
    authToken,
  };
}

/** What {@link rotateAuthToken} issued: the only time the new token is shown. */
export interface RotatedCredentials {
  account: AccountRecord;
  authToken: string;
  /** The account's signing key: new when `newSigningKey` was asked, else the current one. */
  signingKey: string;
}

/**
 * Issues a new auth token for an account (and, with `newSigningKey`, a new signing key). The old
 * token stops working with the write: every request reads the account from the store.
 */
export async function rotateAuthToken(
  accounts: AccountRepository,
  sid: string,
  options: { newSigningKey?: boolean; now?: () => number } = {},
): Promise<RotatedCredentials> {
  const existing = await accounts.get(sid);
  if (!existing) throw new Error(`no account ${sid}`);
  const authToken = randomAuthToken();
  const account: AccountRecord = {
    ...existing,
    authTokenHash: hashAuthToken(authToken),
    signingKey: options.newSigningKey ? randomSigningKey() : existing.signingKey,
    dateUpdated: (options.now ?? Date.now)(),
  };
  await accounts.put(account);
  return { account, authToken, signingKey: account.signingKey };
}

/**
 * An account record as stored before tokens were hashed (`authToken` in clear), brought to the
 * current shape: the token hashed, a signing key issued. Current records come back unchanged.
 */
export function upgradeAccountRecord(data: Record<string, unknown>): AccountRecord {
  const { authToken, ...rest } = data;
  const upgraded = { ...rest } as Record<string, unknown>;
  if (typeof upgraded.authTokenHash !== 'string' && typeof authToken === 'string') {
    upgraded.authTokenHash = hashAuthToken(authToken);
  }
  if (typeof upgraded.signingKey !== 'string') upgraded.signingKey = randomSigningKey();
  return upgraded as unknown as AccountRecord;
}
