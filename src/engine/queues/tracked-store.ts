import type { QueueStore } from '../../queue/index.js';
import type { Clock } from '../clock/clock.js';

/**
 * `store` with every operation counted as I/O in flight on `clock`, so a virtual clock does not
 * move on while a shared store (over the network) has yet to answer.
 */
export function clockTrackedStore(store: QueueStore, clock: Clock): QueueStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out: unknown = value.apply(target, args);
        return out instanceof Promise ? clock.track(out) : out;
      };
    },
  });
}
