/**
 * The platform's role rules (docs/enterprise.md, "Roles"). A user who signed in with its e-mail
 * and password (user-auth.ts) acts as itself. A request of the account holder (Basic auth with
 * the account's sid and token) may name, in the header `X-Acting-User` (a user's sid or e-mail),
 * which user of the account it acts for; without it the account holder acts, with every right
 * (that is how an enterprise gets its first BG_ADMIN).
 */
import type { Context } from 'hono';
import type { AaUserRecord } from '../../store/enterprise/types.js';
import { accountOf, type EnterpriseDeps, type EnterpriseEnv } from '../enterprise/context.js';
import { specError } from '../enterprise/errors.js';

export const ACTING_USER_HEADER = 'X-Acting-User';

/** A user of the account by sid or e-mail (any case). */
export async function findUser(
  deps: EnterpriseDeps,
  accountSid: string,
  sidOrEmail: string,
): Promise<AaUserRecord | undefined> {
  const bySid = await deps.store.users.get(accountSid, sidOrEmail);
  if (bySid) return bySid;
  const page = await deps.store.users.search({
    accountSid,
    emailContains: sidOrEmail,
    offset: 0,
    limit: 1000,
  });
  return page.items.find((u) => u.emailId.toLowerCase() === sidOrEmail.toLowerCase());
}

/**
 * The signed-in user, else the acting user named by the header, else undefined for the account
 * holder. An unknown one is
 * error 487; one that is not ACTIVE may do nothing (499).
 */
export async function actingUserOf(
  c: Context<EnterpriseEnv>,
  deps: EnterpriseDeps,
  data: unknown,
): Promise<AaUserRecord | undefined> {
  const named = c.req.header(ACTING_USER_HEADER);
  const signedIn = c.get('user');
  if (signedIn) {
    // A user who signed in acts as itself; it cannot borrow another user's role.
    if (
      named !== undefined &&
      named.trim() !== '' &&
      (await findUser(deps, accountOf(c), named.trim()))?.sid !== signedIn.sid
    ) {
      throw specError('accountCreation', data, 'a signed-in user acts as itself only');
    }
    return signedIn;
  }
  if (named === undefined || named.trim() === '') return undefined;
  const user = await findUser(deps, accountOf(c), named.trim());
  if (!user) throw specError('userNotFound', data, `acting user ${named.trim()} not found`);
  if (user.status !== 'ACTIVE') throw specError('accountCreation', data, `acting user is ${user.status}`);
  return user;
}

/** May `actor` add a user to `enterpriseSid`? BG_ADMIN: in its own enterprise; AA_ADMIN: never. */
export function checkCanAdd(actor: AaUserRecord | undefined, enterpriseSid: string, data: unknown): void {
  if (!actor) return;
  if (actor.role !== 'BG_ADMIN')
    throw specError('accountCreation', data, `${actor.role} users cannot add users`);
  if (actor.enterpriseSid !== enterpriseSid) {
    throw specError('accountCreation', data, 'a BG_ADMIN adds users to its own enterprise only');
  }
}

/** May `actor` update `target`? Other users of its own enterprise, whatever their role. */
export function checkCanUpdate(actor: AaUserRecord | undefined, target: AaUserRecord, data: unknown): void {
  if (!actor) return;
  if (actor.sid === target.sid)
    throw specError('accountCreation', data, 'users cannot change their own status');
  if (actor.enterpriseSid !== target.enterpriseSid) {
    throw specError('accountCreation', data, 'users update users of their own enterprise only');
  }
}
