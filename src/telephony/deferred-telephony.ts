import type { Telephony } from '../engine/ports/telephony.js';

/**
 * A `Telephony` chosen after the engine is made. The engine takes its telephony when it is
 * created, and a SIP service needs the engine to start: the engine gets `factory`, the service's
 * telephony comes in through `use` once it runs. Until then the simulated parties answer.
 */
export interface DeferredTelephony {
  /** Give to `createEngine({ telephony })`. */
  readonly factory: (simulated: Telephony) => Telephony;
  /** From now on legs, bridges and rooms go through `choose(simulated)` (e.g. `sip.telephony`). */
  use(choose: (simulated: Telephony) => Telephony): void;
}

export function deferredTelephony(): DeferredTelephony {
  let simulated: Telephony | undefined;
  let chosen: Telephony | undefined;
  return {
    factory(fallback) {
      simulated = fallback;
      return {
        dial: (request, events) => (chosen ?? fallback).dial(request, events),
        connect: (a, b, options) => (chosen ?? fallback).connect(a, b, options),
        room: (sid, name) => (chosen ?? fallback).room(sid, name),
      };
    },
    use(choose) {
      if (!simulated) throw new Error('deferredTelephony: create the engine with its factory first');
      chosen = choose(simulated);
    },
  };
}
