import type { Engine } from '../../engine/engine.js';
import type { CallRepository } from '../../store/ports.js';
import type { CallQueueRouting } from './routing.js';

/** {@link CallQueueRouting} over a call engine, and the store of its calls when given. */
export function engineRouting(engine: Engine, calls?: CallRepository): CallQueueRouting {
  return {
    route: (phoneNumber, config) => engine.setNumber(phoneNumber, config),
    unroute: (phoneNumber) => {
      engine.removeNumber(phoneNumber);
    },
    listQueues: (accountSid) => engine.listQueues(accountSid),
    inspectQueue: (sid) => engine.inspectQueue(sid),
    setQueueMaxSize: (sid, maxSize) => engine.setQueueMaxSize(sid, maxSize),
    subscribe: (listener) => engine.subscribeQueues(listener),
    liveCall: (callSid) => {
      let record: ReturnType<Engine['liveCall']>;
      try {
        record = engine.liveCall(callSid);
      } catch {
        return undefined;
      }
      const r = record.record;
      return { accountSid: r.accountSid, from: r.from, to: r.to, phoneNumberSid: r.phoneNumberSid };
    },
    storedCall: calls
      ? async (accountSid, callSid) => {
          const r = await calls.get(accountSid, callSid);
          return r && { accountSid: r.accountSid, from: r.from, to: r.to, phoneNumberSid: r.phoneNumberSid };
        }
      : undefined,
    now: () => engine.now(),
  };
}
