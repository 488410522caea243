import type { Hono } from 'hono';
import { z } from 'zod';
import { DuplicateRecordError } from '../../store/enterprise/ports.js';
import type { AaUserRecord, SearchQuery } from '../../store/enterprise/types.js';
import { parseBody, readBody, searchQuery } from '../enterprise/body.js';
import { accountOf, type EnterpriseDeps, type EnterpriseEnv, enterpriseOf } from '../enterprise/context.js';
import { ok } from '../enterprise/envelope.js';
import { invalidParameter, specError } from '../enterprise/errors.js';
import { parseSearchParams, searchData, windowOf } from '../enterprise/search.js';
import { isoSeconds } from '../enterprise/timestamps.js';
import { hashPassword } from './password.js';
import { actingUserOf, checkCanAdd, checkCanUpdate } from './roles.js';

const ROLES = ['BG_ADMIN', 'AA_ADMIN'] as const;
const STATUSES = ['ACTIVE', 'SUSPENDED', 'DELETED'] as const;

/** Body of `POST /autoattendant/user`. */
export const createUserBody = z.object({
  name: z.string().trim().max(200, 'at most 200 characters').optional(),
  emailId: z.string().trim().pipe(z.email('must be an e-mail address')),
  password: z.string().min(8, 'at least 8 characters').max(1024, 'at most 1024 characters').optional(),
  role: z.enum(ROLES, `must be one of ${ROLES.join(', ')}`),
  status: z.enum(STATUSES, `must be one of ${STATUSES.join(', ')}`).optional(),
  enterpriseSid: z.string().optional(),
});
/** Body of `PUT /autoattendant/user/{sid}`. */
export const updateUserBody = z.object({
  status: z.enum(STATUSES, `must be one of ${STATUSES.join(', ')}`),
  enterpriseSid: z.string().optional(),
});

/** The JSON form of a user: never its password or hash. */
export function renderUser(u: AaUserRecord) {
  return {
    sid: u.sid,
    accountEmail: u.accountEmail,
    dateCreated: isoSeconds(u.dateCreated),
    dateUpdated: isoSeconds(u.dateUpdated),
    name: u.name,
    emailId: u.emailId,
    role: u.role,
    status: u.status,
    enterpriseSid: u.enterpriseSid,
    uri: `/autoattendant/user/search/${u.sid}`,
  };
}

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidParameter(name, `must be one of ${allowed.join(', ')}`, { parameter: name, value });
  }
  return value as T;
}

/** Users of the platform's Auto Attendant: create, search, get, update (status). */
export function registerUsers(app: Hono<EnterpriseEnv>, deps: EnterpriseDeps): void {
  app.post('/user', async (c) => {
    const body = await readBody(c);
    const input = parseBody(createUserBody, body);
    const accountSid = accountOf(c);
    const actor = await actingUserOf(c, deps, body);
    // A BG_ADMIN that names no enterprise adds to its own.
    const enterprise = await enterpriseOf(
      deps,
      accountSid,
      input.enterpriseSid ?? actor?.enterpriseSid,
      body,
      '505',
    );
    checkCanAdd(actor, enterprise.sid, body);
    const t = deps.now();
    const user: AaUserRecord = {
      sid: deps.sids('RCS'),
      accountSid,
      enterpriseSid: enterprise.sid,
      name: input.name ?? '',
      emailId: input.emailId,
      role: input.role,
      status: input.status ?? 'ACTIVE',
      passwordHash: input.password === undefined ? '' : await hashPassword(input.password, deps.scryptCost),
      accountEmail: enterprise.accountEmail,
      dateCreated: t,
      dateUpdated: t,
    };
    try {
      await deps.store.users.put(user);
    } catch (err) {
      if (err instanceof DuplicateRecordError) throw specError('userNotUnique', body);
      throw err;
    }
    return ok(c, renderUser(user));
  });

  app.get('/user/search', async (c) => {
    const query = searchQuery(c);
    const params = parseSearchParams(query, { name: 'name', email: 'email', dateCreated: 'dateCreated' });
    const search: SearchQuery = {
      accountSid: accountOf(c),
      enterpriseSid: query.enterpriseSid,
      nameContains: query.name,
      emailContains: query.emailId,
      role: oneOf('role', query.role, ROLES),
      status: oneOf('status', query.status, STATUSES),
      ...windowOf(params),
    };
    const page = await deps.store.users.search(search);
    return ok(c, searchData({ path: '/autoattendant/user/search', query, params, page, render: renderUser }));
  });

  app.get('/user/search/:sid', async (c) => {
    const sid = c.req.param('sid');
    const user = await deps.store.users.get(accountOf(c), sid);
    if (!user) throw specError('userNotFound', { sid });
    return ok(c, renderUser(user));
  });

  app.put('/user/:sid', async (c) => {
    const sid = c.req.param('sid');
    const body = await readBody(c);
    const accountSid = accountOf(c);
    const input = parseBody(updateUserBody, body);
    if (input.enterpriseSid !== undefined)
      await enterpriseOf(deps, accountSid, input.enterpriseSid, body, '505');
    const user = await deps.store.users.get(accountSid, sid);
    if (!user || (input.enterpriseSid !== undefined && user.enterpriseSid !== input.enterpriseSid)) {
      throw specError('userNotFound', { sid });
    }
    const actor = await actingUserOf(c, deps, body);
    checkCanUpdate(actor, user, body);
    const updated: AaUserRecord = { ...user, status: input.status, dateUpdated: deps.now() };
    await deps.store.users.put(updated);
    return ok(c, renderUser(updated));
  });
}
