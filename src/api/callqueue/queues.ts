import type { Context, Hono } from 'hono';
import type { QueueInfo, QueueSideView, QueueSnapshot } from '../../queue/index.js';
import { QueueError } from '../../queue/index.js';
import { iso8601, rfc2822 } from '../http/dates.js';
import { ApiError, badParameter, notFound } from '../http/errors.js';
import { queryOf } from '../http/params.js';
import { type CallQueueDeps, type CallQueueEnv, readJsonObject, routingOf } from './context.js';
import type { QueuePairing } from './observer.js';
import { queueChangeBody } from './openapi.js';
import type { CallQueueRouting, LiveCallInfo } from './routing.js';

/** The calls of a queue's members: live on this engine, else as stored (another node's). */
export type MemberCalls = ReadonlyMap<string, LiveCallInfo>;

/** Finds the call of every member of the snapshot (store reads in parallel, for others' calls only). */
export async function memberCalls(snapshot: QueueSnapshot, routing: CallQueueRouting): Promise<MemberCalls> {
  const found = new Map<string, LiveCallInfo>();
  const missing: string[] = [];
  for (const m of [...snapshot.dialer.members, ...snapshot.enqueued.members]) {
    const live = routing.liveCall(m.callSid);
    if (live) found.set(m.callSid, live);
    else missing.push(m.callSid);
  }
  if (routing.storedCall && missing.length > 0) {
    const accountSid = snapshot.queue.accountSid;
    const stored = await Promise.all(missing.map((sid) => routing.storedCall?.(accountSid, sid)));
    for (const [i, call] of stored.entries()) if (call) found.set(missing[i] as string, call);
  }
  return found;
}

function sideJson(view: QueueSideView, calls: MemberCalls): Record<string, unknown> {
  return {
    size: view.size,
    servedCount: view.servedCount,
    averageWaitMs: Math.round(view.averageWaitMs),
    members: view.members.map((m) => {
      const call = calls.get(m.callSid);
      return {
        callSid: m.callSid,
        position: m.position,
        waitMs: m.waitMs,
        enqueuedAt: iso8601(m.enqueuedAt),
        from: call?.from ?? null,
        to: call?.to ?? null,
        numberSid: call?.phoneNumberSid ?? null,
      };
    }),
  };
}

/**
 * A queue's live state: customers (callers that Dial the queue) and agents (callers that
 * Enqueue), each in order with position and wait; served counts and average waits; the limit;
 * and the provisioned numbers seen feeding each side.
 */
export function queueJson(
  snapshot: QueueSnapshot,
  pairing: QueuePairing,
  calls: MemberCalls,
): Record<string, unknown> {
  const { queue } = snapshot;
  const served = snapshot.dialer.servedCount + snapshot.enqueued.servedCount;
  const totalWait =
    snapshot.dialer.averageWaitMs * snapshot.dialer.servedCount +
    snapshot.enqueued.averageWaitMs * snapshot.enqueued.servedCount;
  return {
    sid: queue.sid,
    name: queue.name,
    accountSid: queue.accountSid,
    dateCreated: rfc2822(queue.dateCreated),
    at: iso8601(snapshot.at),
    maxSize: snapshot.maxSize,
    size: snapshot.dialer.size + snapshot.enqueued.size,
    // A match serves one member (the one that waited); the newcomer did not wait.
    servedCount: served,
    averageWaitMs: served > 0 ? Math.round(totalWait / served) : 0,
    customers: sideJson(snapshot.dialer, calls),
    agents: sideJson(snapshot.enqueued, calls),
    customerNumbers: [...pairing.dialer].sort(),
    agentNumbers: [...pairing.enqueued].sort(),
  };
}

/**
 * The account's queues with their live state (extensions; the platform's API has no queue
 * endpoints): list (optionally by `Name`), get by sid, change the size limit.
 */
export function registerQueues(app: Hono<CallQueueEnv>, deps: CallQueueDeps): void {
  const owned = async (c: Context<CallQueueEnv>, routing: CallQueueRouting): Promise<QueueSnapshot> => {
    const sid = c.req.param('sid') ?? '';
    const snapshot = await routing.inspectQueue(sid);
    if (!snapshot || snapshot.queue.accountSid !== c.get('account').sid) throw notFound('Queue', sid);
    return snapshot;
  };
  const render = async (snapshot: QueueSnapshot, routing: CallQueueRouting) =>
    queueJson(snapshot, deps.observer.pairing(snapshot.queue.sid), await memberCalls(snapshot, routing));

  app.get('/queues', async (c) => {
    const name = queryOf(c).Name;
    const routing = routingOf(deps);
    const queues: QueueInfo[] = (await routing.listQueues(c.get('account').sid)).filter(
      (q) => name === undefined || q.name === name,
    );
    const out: Record<string, unknown>[] = [];
    for (const q of queues) {
      const snapshot = await routing.inspectQueue(q.sid);
      if (snapshot) out.push(await render(snapshot, routing));
    }
    return c.json({ queues: out });
  });

  app.get('/queues/:sid', async (c) => {
    const routing = routingOf(deps);
    return c.json(await render(await owned(c, routing), routing));
  });

  app.post('/queues/:sid', async (c) => {
    const routing = routingOf(deps);
    const current = await owned(c, routing);
    const parsed = queueChangeBody.safeParse(await readJsonObject(c));
    if (!parsed.success) {
      const unknown = parsed.error.issues.find((i) => i.code === 'unrecognized_keys');
      if (unknown) throw badParameter(unknown.keys[0], 'unknown field (only maxSize can change)');
      throw badParameter('maxSize', parsed.error.issues[0].message);
    }
    const { maxSize } = parsed.data;
    try {
      await routing.setQueueMaxSize(current.queue.sid, maxSize);
    } catch (err) {
      if (err instanceof QueueError) throw new ApiError(400, 'invalid-parameter', err.message, 'maxSize');
      throw err;
    }
    return c.json(await render(await owned(c, routing), routing));
  });
}
