import type { EngineQueueEvent } from '../../../src/engine/queues/events.js';
import { MemoryQueueStore, type QueueStore } from '../../../src/queue/index.js';
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
  store?: QueueStore,
): QueueHarness {
  const h = harness(
    { '/agent': agentApp, '/customer': customerApp, ...apps },
    { queues: { maxSize, store } },
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

/** A memory queue store whose operations named in `failing` throw, as a broken shared store would. */
export function flakyStore(): { store: QueueStore; failing: Set<keyof QueueStore> } {
  const failing = new Set<keyof QueueStore>();
  const inner = new MemoryQueueStore();
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (failing.has(prop as keyof QueueStore))
          return Promise.reject(new Error(`store down (${String(prop)})`));
        return value.apply(target, args);
      };
    },
  });
  return { store, failing };
}
