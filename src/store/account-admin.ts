/**
 * Account management shared by `rcml account` and the `{api_root}/Accounts` resource: creating
 * accounts (top-level or sub-accounts) and changing their name and standing.
 */
import { newAccount } from './credentials.js';
import type { AccountRepository } from './ports.js';
import { randomSid } from './sid.js';
import type { AccountRecord, AccountStatus } from './types.js';

/** The statuses an account can have. */
export const ACCOUNT_STATUSES: readonly AccountStatus[] = ['active', 'suspended', 'closed'];

/** An account's standing (`active` for records that predate it). */
export const statusOf = (account: AccountRecord): AccountStatus => account.status ?? 'active';

/** Why an account change is refused. */
export class AccountChangeError extends Error {
  constructor(
    readonly reason: 'not-found' | 'closed' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'AccountChangeError';
  }
}

/** Creates an account with fresh secrets; the auth token is returned this once. */
export async function createAccount(
  accounts: AccountRepository,
  fields: { friendlyName: string; ownerSid?: string; now: number; sid?: string },
): Promise<{ account: AccountRecord; authToken: string }> {
  const created = newAccount(fields.sid ?? randomSid('AC'), {
    friendlyName: fields.friendlyName,
    now: fields.now,
  });
  const account: AccountRecord = {
    ...created.account,
    status: 'active',
    ...(fields.ownerSid === undefined ? {} : { ownerSid: fields.ownerSid }),
  };
  await accounts.put(account);
  return { account, authToken: created.authToken };
}

/**
 * Changes an account's name or status. A closed account stays closed (reopening is refused);
 * closing or suspending again is a no-op write.
 */
export async function changeAccount(
  accounts: AccountRepository,
  sid: string,
  change: { friendlyName?: string; status?: AccountStatus },
  now: number,
): Promise<{ before: AccountRecord; after: AccountRecord }> {
  const before = await accounts.get(sid);
  if (!before) throw new AccountChangeError('not-found', `no account ${sid}`);
  if (statusOf(before) === 'closed' && change.status !== undefined && change.status !== 'closed') {
    throw new AccountChangeError('closed', `account ${sid} is closed: closing is final`);
  }
  const after: AccountRecord = {
    ...before,
    ...(change.friendlyName === undefined ? {} : { friendlyName: change.friendlyName }),
    ...(change.status === undefined ? {} : { status: change.status }),
    dateUpdated: now,
  };
  await accounts.put(after);
  return { before, after };
}
