import { raise, setup } from 'xstate';
import type { HttpMethod } from '../rcml/model.js';
import type { CallStatus } from './records.js';
import type { RequestKind } from './types.js';

/** A document the call's script should fetch and run, replacing whatever runs now. */
export interface ScriptStart {
  url: string;
  method: HttpMethod;
  kind: RequestKind;
  /** Extra request parameters (action results). */
  params?: Record<string, string>;
  /** Tried once when this, the first document, cannot be fetched or parsed. */
  fallback?: { url: string; method: HttpMethod };
  /**
   * Called when the document runs out of verbs, instead of hanging up (Dial screening
   * documents, documents run beside a bridge).
   */
  onEnd?: () => void;
}

/** What the machine needs from the call object it drives. */
export interface CallHooks {
  /** Ring time before an outbound call is no-answer, ms. */
  readonly ringTimeoutMs: number;
  enteredRinging(): void;
  enteredInProgress(): void;
  enteredEnded(status: CallStatus): void;
  /** Stops the running script, if any, and starts `start`. */
  startScript(start: ScriptStart): void;
}

export type CallMachineEvent =
  | { type: 'RING' }
  | { type: 'RING_INBOUND'; start: ScriptStart }
  | { type: 'ANSWER' }
  | { type: 'END'; status: CallStatus }
  | { type: 'RUN'; start: ScriptStart };

const runScript = ({ context, event }: { context: { call: CallHooks }; event: CallMachineEvent }): void => {
  if (event.type === 'RUN' || event.type === 'RING_INBOUND') context.call.startScript(event.start);
};

/**
 * A call's lifecycle: queued -> ringing (outbound `dialing` with its ring timeout, or inbound
 * `ringing` while its first document runs) -> in-progress -> ended. RUN starts a script
 * (replacing the running one: live modification) only while the call is live; entering
 * `ended` stops the script. One flat machine per call keeps actors small and fast.
 */
export const callMachine = setup({
  types: {
    context: {} as { call: CallHooks },
    input: {} as { call: CallHooks },
    events: {} as CallMachineEvent,
  },
  delays: {
    ringTimeout: ({ context }) => context.call.ringTimeoutMs,
  },
}).createMachine({
  id: 'call',
  context: ({ input }) => ({ call: input.call }),
  initial: 'queued',
  states: {
    queued: {
      on: { RING: 'dialing', RING_INBOUND: 'ringing', END: 'ended' },
    },
    dialing: {
      entry: ({ context }) => context.call.enteredRinging(),
      after: { ringTimeout: { actions: raise({ type: 'END', status: 'no-answer' }) } },
      on: { ANSWER: 'inProgress', END: 'ended' },
    },
    /** Inbound: rings while the first document (carried by RING_INBOUND) runs. */
    ringing: {
      entry: [({ context }) => context.call.enteredRinging(), runScript],
      on: { ANSWER: 'inProgress', END: 'ended', RUN: { actions: runScript } },
    },
    inProgress: {
      entry: ({ context }) => context.call.enteredInProgress(),
      on: { END: 'ended', RUN: { actions: runScript } },
    },
    ended: {
      type: 'final',
      entry: ({ context, event }) =>
        context.call.enteredEnded(event.type === 'END' ? event.status : 'completed'),
    },
  },
});
