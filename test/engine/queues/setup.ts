import type { EngineQueueEvent } from '../../../src/engine/queues/events.js';
import { type App, BASE, type Harness, harness, rcml } from '../harness.js';

export { BASE, rcml };

/** Agent number (its app runs Enqueue) and customer number (its app runs Dial+Queue). */
export const AGENT_NUMBER = '+15550000001';
export const CUSTOMER_NUMBER = '+15550000002';

export interface QueueHarness extends Harness {
  /** Queue events in order. */
  queueEvents: EngineQueueEvent[];
  /** An agent calls in at the current time; returns its sid. */
  agent(from?: string): string;
  /** A customer calls in at the current time; returns its sid. */
  customer(from?: string): string;
  /** Request parameters of requests to `path`, in order. */
  paramsOf(path: string): Array<Record<string, string>>;
}

/** A harness with an agent app at /agent and a customer app at /customer, plus `apps`. */
export function queueHarness(
  agentApp: App,
  customerApp: App,
  apps: Record<string, App> = {},
  maxSize?: number,
): QueueHarness {
  const h = harness(
    { '/agent': agentApp, '/customer': customerApp, ...apps },
    maxSize ? { queues: { maxSize } } : {},
  );
  h.engine.setNumber(AGENT_NUMBER, { voiceUrl: `${BASE}/agent` });
  h.engine.setNumber(CUSTOMER_NUMBER, { voiceUrl: `${BASE}/customer` });
  let n = 0;
  const q = h as QueueHarness;
  q.queueEvents = [];
  Object.defineProperty(q, 'queueEvents', {
    get: () => h.events.flatMap((e) => (e.type === 'queue' ? [e.event] : [])),
  });
  q.agent = (from) =>
    h.engine.incomingCall(from ?? `+1666000${String(++n).padStart(4, '0')}`, AGENT_NUMBER).sid;
  q.customer = (from) =>
    h.engine.incomingCall(from ?? `+1777000${String(++n).padStart(4, '0')}`, CUSTOMER_NUMBER).sid;
  q.paramsOf = (path) => h.requests.filter((r) => r.url.startsWith(BASE + path)).map((r) => r.params);
  return q;
}

/** Status of a call now. */
export function statusOf(h: Harness, sid: string): string | undefined {
  return h.engine.getCall(sid)?.status;
}
