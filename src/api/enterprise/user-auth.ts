/**
 * Who makes a request to the Auto Attendant and Task Router areas. HTTP Basic with an account's
 * `AccountSid:AuthToken` is the account holder, with every right. HTTP Basic with an Auto
 * Attendant user's e-mail and password (an `@` in the user name tells them apart) is that user:
 * its account is the user's, its role rules bind, and the request is held to the user's
 * enterprise (see scope.ts). Only ACTIVE users with a password sign in.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { UserRepository } from '../../store/enterprise/ports.js';
import type { AaUserRecord } from '../../store/enterprise/types.js';
import type { AccountRepository } from '../../store/ports.js';
import { verifyPassword } from '../autoattendant/password.js';
import { basicAuth, inactive, parseBasic } from '../http/auth.js';
import { ApiError, errorResponse } from '../http/errors.js';
import type { EnterpriseEnv } from './context.js';
import type { EnterpriseScope } from './scope.js';

/** Successful verifications remembered, so a signed-in client does not pay scrypt per request. */
const VERIFIED_CACHE = 1000;

/** Remembers which (user, stored hash, password) triples verified, by a SHA-256 of them only. */
class VerifiedPasswords {
  private readonly keys = new Set<string>();

  private key(user: AaUserRecord, password: string): string {
    return createHash('sha256').update(`${user.sid}\0${user.passwordHash}\0${password}`).digest('base64');
  }

  async verify(user: AaUserRecord, password: string): Promise<boolean> {
    if (user.passwordHash === '') return false;
    const key = this.key(user, password);
    if (this.keys.has(key)) return true;
    if (!(await verifyPassword(password, user.passwordHash))) return false;
    if (this.keys.size >= VERIFIED_CACHE) this.keys.delete(this.keys.values().next().value as string);
    this.keys.add(key);
    return true;
  }
}

/** What {@link areaAuth} reads. */
export interface AreaAuthOptions {
  accounts: AccountRepository;
  users: UserRepository;
  scope: EnterpriseScope;
  /** Requests that go unauthenticated (the announcement audio download). */
  skip?: (method: string, path: string) => boolean;
}

/** Authenticates the account holder or an Auto Attendant user (see the module comment). */
export function areaAuth(options: AreaAuthOptions): MiddlewareHandler<EnterpriseEnv> {
  const holder = basicAuth(options.accounts, options.skip);
  const verified = new VerifiedPasswords();
  const refuse = (c: Parameters<MiddlewareHandler>[0]) =>
    errorResponse(
      c,
      new ApiError(401, 'unauthorized', 'wrong e-mail or password, or the user is not active'),
      {
        'WWW-Authenticate': 'Basic realm="rcml"',
      },
    );
  return async (c, next) => {
    if (options.skip?.(c.req.method, c.req.path)) return next();
    const credentials = parseBasic(c.req.header('Authorization'));
    if (!credentials?.user.includes('@')) return holder(c, next);
    let user: AaUserRecord | undefined;
    for (const candidate of await options.users.withEmail(credentials.user)) {
      if (await verified.verify(candidate, credentials.password)) {
        user = candidate;
        break;
      }
    }
    if (user?.status !== 'ACTIVE') return refuse(c);
    const account = await options.accounts.get(user.accountSid);
    if (!account) return refuse(c);
    const refused = inactive(c, account);
    if (refused) return refused;
    c.set('account', account);
    c.set('user', user);
    const signedIn = user;
    return options.scope.run(signedIn.enterpriseSid, () => next());
  };
}
