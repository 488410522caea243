import type { Context, Hono } from 'hono';
import type { CallQueueEvent } from '../../store/callqueue/types.js';
import { iso8601 } from '../http/dates.js';
import { notFound } from '../http/errors.js';
import { queryOf } from '../http/params.js';
import { summarizeCalls } from './call-summary.js';
import type { CallQueueDeps, CallQueueEnv } from './context.js';
import { numberJson } from './record.js';

function eventJson(e: CallQueueEvent): Record<string, unknown> {
  const { accountSid: _a, numberSid: _n, at, ...rest } = e;
  return { ...rest, date: iso8601(at) };
}

/**
 * Provisioned numbers (extensions; the platform's API has only provisioning): list, get,
 * unprovision, and what happened to each number's calls.
 */
export function registerNumbers(app: Hono<CallQueueEnv>, deps: CallQueueDeps): void {
  const { store, baseUrl } = deps.service;
  const owned = async (c: Context<CallQueueEnv>) => {
    const sid = c.req.param('sid') ?? '';
    const number = await store.numbers.get(c.get('account').sid, sid);
    if (!number) throw notFound('Call Queuing number', sid);
    return number;
  };

  app.get('/numbers', async (c) => {
    const numbers = await store.numbers.list(c.get('account').sid);
    return c.json({ numbers: numbers.map((n) => numberJson(n, baseUrl)) });
  });

  app.get('/numbers/:sid', async (c) => c.json(numberJson(await owned(c), baseUrl)));

  app.delete('/numbers/:sid', async (c) => {
    const sid = c.req.param('sid');
    if (!(await deps.service.unprovision(c.get('account').sid, sid)))
      throw notFound('Call Queuing number', sid);
    return c.body(null, 204);
  });

  app.get('/numbers/:sid/calls', async (c) => {
    const number = await owned(c);
    const { calls, totals } = summarizeCalls(await store.events.list(number.accountSid, number.sid));
    return c.json({ numberSid: number.sid, phoneNumber: number.phoneNumber, totals, calls });
  });

  app.get('/numbers/:sid/events', async (c) => {
    const number = await owned(c);
    const callSid = queryOf(c).CallSid;
    const events = await store.events.list(number.accountSid, number.sid, { callSid });
    return c.json({ numberSid: number.sid, events: events.map(eventJson) });
  });
}
