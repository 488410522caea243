import type { Hono } from 'hono';
import { z } from 'zod';
import { DuplicateRecordError } from '../../store/enterprise/ports.js';
import type { ActivityRecord, WorkspaceRecord } from '../../store/enterprise/types.js';
import { parseBody, readBody, searchQuery } from '../enterprise/body.js';
import { accountOf, type EnterpriseDeps, type EnterpriseEnv, enterpriseOf } from '../enterprise/context.js';
import { ok } from '../enterprise/envelope.js';
import { specError } from '../enterprise/errors.js';
import { parseSearchParams, searchData, windowOf } from '../enterprise/search.js';
import { isoSeconds } from '../enterprise/timestamps.js';

const ORDER = z.enum(['FIFO', 'LIFO'], 'must be FIFO or LIFO');
const name = z.string().trim().min(1, 'must not be blank').max(200, 'at most 200 characters');
/** Body of `POST /taskrouter/workspaces`. */
export const createWorkspaceBody = z.object({
  enterpriseSid: z.string({ error: 'is required' }),
  name,
  priortizeQueueOrder: ORDER.optional(),
  prioritizeQueueOrder: ORDER.optional(),
});
/** Body of `PUT /taskrouter/workspaces/{sid}`. */
export const updateWorkspaceBody = z.object({
  name: name.optional(),
  priortizeQueueOrder: ORDER.optional(),
  prioritizeQueueOrder: ORDER.optional(),
  defaultActivitySid: z.string().optional(),
  defaultActivityName: z.string().optional(),
  timeoutActivitySid: z.string().optional(),
  timeoutActivityName: z.string().optional(),
});

/** The JSON form of a workspace, with its activities. */
export function renderWorkspace(deps: EnterpriseDeps, w: WorkspaceRecord, activities: ActivityRecord[]) {
  const nameOf = (sid: string) => activities.find((a) => a.sid === sid)?.name ?? '';
  const uri = `/taskrouter/workspaces/search/${w.sid}`;
  return {
    sid: w.sid,
    url: `${deps.baseUrl}${uri}`,
    enterpriseSid: w.enterpriseSid,
    name: w.name,
    timeoutActivityName: nameOf(w.timeoutActivitySid),
    timeoutActivitySid: w.timeoutActivitySid,
    defaultActivityName: nameOf(w.defaultActivitySid),
    defaultActivitySid: w.defaultActivitySid,
    priortizeQueueOrder: w.prioritizeQueueOrder,
    prioritizeQueueOrder: w.prioritizeQueueOrder,
    multiTaskEnabled: w.multiTaskEnabled,
    activities: activities.map((a) => ({ sid: a.sid, name: a.name, available: a.available })),
    accountEmail: w.accountEmail,
    dateCreated: isoSeconds(w.dateCreated),
    dateUpdated: isoSeconds(w.dateUpdated),
    uri,
  };
}

/** The activities of a workspace, oldest first. */
export async function activitiesOf(deps: EnterpriseDeps, accountSid: string, workspaceSid: string) {
  return (await deps.store.activities.search({ accountSid, workspaceSid, offset: 0, limit: 1000 })).items;
}

/** The account's workspace, or error 520. */
export async function workspaceOf(deps: EnterpriseDeps, accountSid: string, sid: unknown, data: unknown) {
  const found = typeof sid === 'string' ? await deps.store.workspaces.get(accountSid, sid) : undefined;
  if (!found) throw specError('workspaceNotFound', data);
  return found;
}

/** Workspaces of the platform's Task Router: create, search, get, update, delete. */
export function registerWorkspaces(app: Hono<EnterpriseEnv>, deps: EnterpriseDeps): void {
  const render = async (accountSid: string, w: WorkspaceRecord) =>
    renderWorkspace(deps, w, await activitiesOf(deps, accountSid, w.sid));

  app.post('/workspaces', async (c) => {
    const body = await readBody(c);
    const input = parseBody(createWorkspaceBody, body);
    const accountSid = accountOf(c);
    const enterprise = await enterpriseOf(deps, accountSid, input.enterpriseSid, body);
    const t = deps.now();
    const sid = deps.sids('WS');
    const activity = (activityName: string, available: boolean): ActivityRecord => ({
      sid: deps.sids('AT'),
      accountSid,
      enterpriseSid: enterprise.sid,
      workspaceSid: sid,
      name: activityName,
      available,
      dateCreated: t,
      dateUpdated: t,
    });
    const offline = activity('Offline', false);
    const online = activity('Online', true);
    const workspace: WorkspaceRecord = {
      sid,
      accountSid,
      enterpriseSid: enterprise.sid,
      name: input.name,
      // A new worker starts Offline, and a worker that lets a reservation time out goes Offline.
      defaultActivitySid: offline.sid,
      timeoutActivitySid: offline.sid,
      prioritizeQueueOrder: input.priortizeQueueOrder ?? input.prioritizeQueueOrder ?? 'FIFO',
      multiTaskEnabled: false,
      accountEmail: enterprise.accountEmail,
      dateCreated: t,
      dateUpdated: t,
    };
    try {
      await deps.store.workspaces.create(workspace, [offline, online]);
    } catch (err) {
      if (err instanceof DuplicateRecordError) throw specError('workspaceNotUnique', body);
      throw err;
    }
    return ok(c, renderWorkspace(deps, workspace, [offline, online]));
  });

  app.get('/workspaces/search', async (c) => {
    const query = searchQuery(c);
    const params = parseSearchParams(query, { name: 'name', dateCreated: 'dateCreated' });
    const accountSid = accountOf(c);
    const page = await deps.store.workspaces.search({
      accountSid,
      enterpriseSid: query.enterpriseSid,
      nameContains: query.name,
      ...windowOf(params),
    });
    const rendered = await Promise.all(page.items.map((w) => render(accountSid, w)));
    return ok(
      c,
      searchData({
        path: '/taskrouter/workspaces/search',
        query,
        params,
        page,
        render: (w) => rendered[page.items.indexOf(w)],
      }),
    );
  });

  app.get('/workspaces/search/:sid', async (c) => {
    const sid = c.req.param('sid');
    return ok(c, await render(accountOf(c), await workspaceOf(deps, accountOf(c), sid, { sid })));
  });

  app.put('/workspaces/:sid', async (c) => {
    const sid = c.req.param('sid');
    const body = await readBody(c);
    const accountSid = accountOf(c);
    const current = await workspaceOf(deps, accountSid, sid, { sid });
    const input = parseBody(updateWorkspaceBody, body);
    const activities = await activitiesOf(deps, accountSid, sid);
    // The sid wins over the name when both are given.
    const activity = (bySid: string | undefined, byName: string | undefined, keep: string) => {
      if (bySid !== undefined) {
        if (!activities.some((a) => a.sid === bySid)) throw specError('activityNotFound', body);
        return bySid;
      }
      if (byName !== undefined) {
        const found = activities.find((a) => a.name.toLowerCase() === byName.trim().toLowerCase());
        if (!found) throw specError('activityNotFound', body);
        return found.sid;
      }
      return keep;
    };
    const updated: WorkspaceRecord = {
      ...current,
      name: input.name ?? current.name,
      prioritizeQueueOrder:
        input.priortizeQueueOrder ?? input.prioritizeQueueOrder ?? current.prioritizeQueueOrder,
      defaultActivitySid: activity(
        input.defaultActivitySid,
        input.defaultActivityName,
        current.defaultActivitySid,
      ),
      timeoutActivitySid: activity(
        input.timeoutActivitySid,
        input.timeoutActivityName,
        current.timeoutActivitySid,
      ),
      dateUpdated: deps.now(),
    };
    try {
      await deps.store.workspaces.put(updated);
    } catch (err) {
      if (err instanceof DuplicateRecordError) throw specError('workspaceNotUnique', body);
      throw err;
    }
    return ok(c, renderWorkspace(deps, updated, activities));
  });

  app.delete('/workspaces/:sid', async (c) => {
    const sid = c.req.param('sid');
    const accountSid = accountOf(c);
    const current = await workspaceOf(deps, accountSid, sid, { sid });
    const rendered = await render(accountSid, current);
    await deps.store.workspaces.delete(accountSid, sid);
    return ok(c, rendered);
  });
}
