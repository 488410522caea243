/**
 * Enterprises: an extension of the API (the platform's has none), so an account can create the
 * enterprise its users, announcements and workspaces belong to. Same envelopes as the areas.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { EnterpriseRecord } from '../../store/enterprise/types.js';
import { parseBody, readBody, searchQuery } from './body.js';
import { accountOf, type EnterpriseDeps, type EnterpriseEnv, enterpriseOf } from './context.js';
import { ok } from './envelope.js';
import { parseSearchParams, searchData, windowOf } from './search.js';
import { isoSeconds } from './timestamps.js';

const name = z.string().trim().min(1, 'must not be blank').max(200, 'at most 200 characters');
const email = z.union([z.literal(''), z.email('must be an e-mail address')]);

/** Body of `POST /enterprises`. */
export const createEnterpriseBody = z.object({
  name,
  accountEmail: email.optional(),
  autoAttendant: z.boolean().optional(),
});
/** Body of `PUT /enterprises/{sid}`. */
export const updateEnterpriseBody = z.object({
  name: name.optional(),
  accountEmail: email.optional(),
  autoAttendant: z.boolean().optional(),
});

/** The JSON form of an enterprise. */
export function renderEnterprise(e: EnterpriseRecord) {
  return {
    sid: e.sid,
    name: e.name,
    accountEmail: e.accountEmail,
    autoAttendant: e.autoAttendant,
    dateCreated: isoSeconds(e.dateCreated),
    dateUpdated: isoSeconds(e.dateUpdated),
    uri: `/enterprises/search/${e.sid}`,
  };
}

/** `POST /enterprises`, `GET /enterprises/search[/{sid}]`, `PUT /enterprises/{sid}`. */
export function registerEnterprises(app: Hono<EnterpriseEnv>, deps: EnterpriseDeps): void {
  app.post('/', async (c) => {
    const body = await readBody(c);
    const input = parseBody(createEnterpriseBody, body);
    const t = deps.now();
    const record: EnterpriseRecord = {
      sid: deps.sids('EN'),
      accountSid: accountOf(c),
      name: input.name,
      accountEmail: input.accountEmail ?? '',
      autoAttendant: input.autoAttendant ?? true,
      dateCreated: t,
      dateUpdated: t,
    };
    await deps.store.enterprises.put(record);
    return ok(c, renderEnterprise(record));
  });

  app.get('/search', async (c) => {
    const query = searchQuery(c);
    const params = parseSearchParams(query, { name: 'name', dateCreated: 'dateCreated' });
    const page = await deps.store.enterprises.search({
      accountSid: accountOf(c),
      nameContains: query.name,
      ...windowOf(params),
    });
    return ok(c, searchData({ path: '/enterprises/search', query, params, page, render: renderEnterprise }));
  });

  app.get('/search/:sid', async (c) => {
    const sid = c.req.param('sid');
    return ok(c, renderEnterprise(await enterpriseOf(deps, accountOf(c), sid, { sid })));
  });

  app.put('/:sid', async (c) => {
    const sid = c.req.param('sid');
    const body = await readBody(c);
    const current = await enterpriseOf(deps, accountOf(c), sid, { sid });
    const input = parseBody(updateEnterpriseBody, body);
    const record: EnterpriseRecord = {
      ...current,
      name: input.name ?? current.name,
      accountEmail: input.accountEmail ?? current.accountEmail,
      autoAttendant: input.autoAttendant ?? current.autoAttendant,
      dateUpdated: deps.now(),
    };
    await deps.store.enterprises.put(record);
    return ok(c, renderEnterprise(record));
  });
}
