import type { Hono } from 'hono';
import { z } from 'zod';
import { DuplicateRecordError } from '../../store/enterprise/ports.js';
import type { TaskQueueRecord } from '../../store/enterprise/types.js';
import { ExpressionError, parseExpression } from '../../taskrouter/parse.js';
import { parseBody, readBody, searchQuery } from '../enterprise/body.js';
import { accountOf, type EnterpriseDeps, type EnterpriseEnv } from '../enterprise/context.js';
import { ok } from '../enterprise/envelope.js';
import { invalidParameter, specError } from '../enterprise/errors.js';
import { parseSearchParams, searchData, windowOf } from '../enterprise/search.js';
import { isoSeconds } from '../enterprise/timestamps.js';
import { activitiesOf, workspaceOf } from './workspaces.js';

const fields = {
  name: z.string().trim().min(1, 'must not be blank').max(200, 'at most 200 characters'),
  maxReservedWorkers: z.coerce
    .number('must be an integer from 1 to 50')
    .int('must be an integer from 1 to 50')
    .min(1, 'must be an integer from 1 to 50')
    .max(50, 'must be an integer from 1 to 50'),
  assignmentActivitySid: z.string(),
  reservationActivitySid: z.string(),
  targetWorkers: z.string().max(4096, 'at most 4096 characters'),
  taskOrder: z.enum(['FIFO', 'LIFO'], 'must be FIFO or LIFO'),
};
/** Body of `POST /taskrouter/taskqueues`. */
export const createTaskQueueBody = z.object({
  workspaceSid: z.string({ error: 'is required' }),
  enterpriseSid: z.string().optional(),
  name: fields.name,
  maxReservedWorkers: fields.maxReservedWorkers.optional(),
  assignmentActivitySid: fields.assignmentActivitySid.optional(),
  reservationActivitySid: fields.reservationActivitySid.optional(),
  targetWorkers: fields.targetWorkers.optional(),
  taskOrder: fields.taskOrder.optional(),
});
/** Body of `PUT /taskrouter/taskqueues/{sid}`. */
export const updateTaskQueueBody = z.object({
  name: fields.name.optional(),
  maxReservedWorkers: fields.maxReservedWorkers.optional(),
  assignmentActivitySid: fields.assignmentActivitySid.optional(),
  reservationActivitySid: fields.reservationActivitySid.optional(),
  targetWorkers: fields.targetWorkers.optional(),
  taskOrder: fields.taskOrder.optional(),
});

export const DEFAULT_TARGET_WORKERS = '1==1';

/** `targetWorkers` after checking its syntax (400 naming the column otherwise). */
function checkTarget(expression: string, body: unknown): string {
  try {
    parseExpression(expression);
  } catch (err) {
    if (err instanceof ExpressionError) throw invalidParameter('targetWorkers', err.message, body);
    throw err;
  }
  return expression;
}

/** The JSON form of a task queue. */
export function renderTaskQueue(deps: EnterpriseDeps, q: TaskQueueRecord) {
  const uri = `/taskrouter/taskqueues/search/${q.sid}`;
  return {
    sid: q.sid,
    url: `${deps.baseUrl}${uri}`,
    enterpriseSid: q.enterpriseSid,
    workspaceSid: q.workspaceSid,
    name: q.name,
    assignmentActivitySid: q.assignmentActivitySid,
    reservationActivitySid: q.reservationActivitySid,
    targetWorkers: q.targetWorkers,
    taskOrder: q.taskOrder,
    maxReservedWorkers: q.maxReservedWorkers,
    accountEmail: q.accountEmail,
    dateCreated: isoSeconds(q.dateCreated),
    dateUpdated: isoSeconds(q.dateUpdated),
    uri,
  };
}

/** Task queues of the platform's Task Router: create, search, get, update. */
export function registerTaskQueues(app: Hono<EnterpriseEnv>, deps: EnterpriseDeps): void {
  const save = async (q: TaskQueueRecord, body: unknown) => {
    try {
      await deps.store.taskQueues.put(q);
    } catch (err) {
      if (err instanceof DuplicateRecordError) throw specError('taskQueueNotUnique', body);
      throw err;
    }
  };
  const activityIn = async (
    accountSid: string,
    workspaceSid: string,
    sid: string | undefined,
    keep: string,
    body: unknown,
  ) => {
    if (sid === undefined) return keep;
    const activities = await activitiesOf(deps, accountSid, workspaceSid);
    if (!activities.some((a) => a.sid === sid)) throw specError('activityNotFound', body);
    return sid;
  };

  app.post('/taskqueues', async (c) => {
    const body = await readBody(c);
    const input = parseBody(createTaskQueueBody, body);
    const accountSid = accountOf(c);
    const workspace = await workspaceOf(deps, accountSid, input.workspaceSid, body);
    if (input.enterpriseSid !== undefined && input.enterpriseSid !== workspace.enterpriseSid) {
      throw specError('workspaceNotFound', body);
    }
    const targetWorkers = checkTarget(input.targetWorkers ?? DEFAULT_TARGET_WORKERS, body);
    // A reserved or assigned worker is no longer available: Offline unless told otherwise.
    const offline = workspace.defaultActivitySid;
    const t = deps.now();
    const queue: TaskQueueRecord = {
      sid: deps.sids('TQ'),
      accountSid,
      enterpriseSid: workspace.enterpriseSid,
      workspaceSid: workspace.sid,
      name: input.name,
      assignmentActivitySid: await activityIn(
        accountSid,
        workspace.sid,
        input.assignmentActivitySid,
        offline,
        body,
      ),
      reservationActivitySid: await activityIn(
        accountSid,
        workspace.sid,
        input.reservationActivitySid,
        offline,
        body,
      ),
      targetWorkers,
      taskOrder: input.taskOrder ?? 'FIFO',
      maxReservedWorkers: input.maxReservedWorkers ?? 1,
      accountEmail: workspace.accountEmail,
      dateCreated: t,
      dateUpdated: t,
    };
    await save(queue, body);
    return ok(c, renderTaskQueue(deps, queue));
  });

  app.get('/taskqueues/search', async (c) => {
    const query = searchQuery(c);
    const params = parseSearchParams(query, { name: 'name', dateCreated: 'dateCreated' });
    const page = await deps.store.taskQueues.search({
      accountSid: accountOf(c),
      enterpriseSid: query.enterpriseSid,
      workspaceSid: query.workspaceSid,
      nameContains: query.name,
      ...windowOf(params),
    });
    return ok(
      c,
      searchData({
        path: '/taskrouter/taskqueues/search',
        query,
        params,
        page,
        render: (q) => renderTaskQueue(deps, q),
      }),
    );
  });

  const queueOf = async (accountSid: string, sid: string) => {
    const found = await deps.store.taskQueues.get(accountSid, sid);
    if (!found) throw specError('taskQueueNotFound', { sid });
    return found;
  };

  app.get('/taskqueues/search/:sid', async (c) =>
    ok(c, renderTaskQueue(deps, await queueOf(accountOf(c), c.req.param('sid')))),
  );

  app.put('/taskqueues/:sid', async (c) => {
    const body = await readBody(c);
    const accountSid = accountOf(c);
    const current = await queueOf(accountSid, c.req.param('sid'));
    const input = parseBody(updateTaskQueueBody, body);
    const ws = current.workspaceSid;
    const updated: TaskQueueRecord = {
      ...current,
      name: input.name ?? current.name,
      maxReservedWorkers: input.maxReservedWorkers ?? current.maxReservedWorkers,
      assignmentActivitySid: await activityIn(
        accountSid,
        ws,
        input.assignmentActivitySid,
        current.assignmentActivitySid,
        body,
      ),
      reservationActivitySid: await activityIn(
        accountSid,
        ws,
        input.reservationActivitySid,
        current.reservationActivitySid,
        body,
      ),
      targetWorkers:
        input.targetWorkers === undefined ? current.targetWorkers : checkTarget(input.targetWorkers, body),
      taskOrder: input.taskOrder ?? current.taskOrder,
      dateUpdated: deps.now(),
    };
    await save(updated, body);
    return ok(c, renderTaskQueue(deps, updated));
  });
}
