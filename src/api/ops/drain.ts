/**
 * Graceful drain: new calls are refused (503, code 20503) while live calls run on, until none is
 * left or a deadline comes; the server's close then ends the rest with their final records.
 */
import { type CallControl, CallControlError } from '../platform/call-control.js';
import type { Readiness } from './readiness.js';

/** The name of the readiness check that fails while draining. */
export const DRAINING_CHECK = 'accepting-calls';

/** A drain switch shared by the call gate and the server. */
export interface DrainState {
  readonly draining: boolean;
  /** Refuses new calls from now on; `/ready` answers 503 naming {@link DRAINING_CHECK}. */
  start(): void;
}

export function createDrainState(readiness?: Readiness): DrainState {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    start() {
      if (draining) return;
      draining = true;
      readiness?.register(DRAINING_CHECK, () => {
        throw new Error('draining: new calls are refused');
      });
    },
  };
}

const refuse = () =>
  Promise.reject(new CallControlError('unavailable', 'the server is shutting down: no new calls'));

/** Call control that refuses to start calls (outbound or simulated inbound) while draining. */
export function gateNewCalls(control: CallControl, state: DrainState): CallControl {
  const sim = control.sim;
  return {
    createCall: (accountSid, params) => (state.draining ? refuse() : control.createCall(accountSid, params)),
    modifyCall: (accountSid, callSid, params) => control.modifyCall(accountSid, callSid, params),
    muteParticipant: (accountSid, conferenceSid, callSid, mute) =>
      control.muteParticipant(accountSid, conferenceSid, callSid, mute),
    listConferences: control.listConferences?.bind(control),
    sim: sim && {
      ...sim,
      incomingCall: (accountSid, params) =>
        state.draining ? refuse() : sim.incomingCall(accountSid, params),
    },
  };
}

/** Resolves once `source` has no live call, checking every `pollMs`, or when `deadline` settles. */
export function untilNoLiveCalls(
  source: { readonly liveCount: number },
  deadline: Promise<unknown>,
  pollMs = 100,
): Promise<void> {
  if (source.liveCount === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (source.liveCount === 0) done();
    }, pollMs);
    const done = () => {
      clearInterval(timer);
      resolve();
    };
    deadline.then(done, done);
  });
}
