import { type AnyActorRef, createActor, fromTransition, setup } from 'xstate';
import type { HttpMethod } from '../rcml/model.js';
import type { Clock } from './clock/clock.js';
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
  /** Outbound: ringing its party. */
  enteredDialing(): void;
  /** Inbound: ringing while its first document runs; starts that document. */
  enteredRinging(): void;
  enteredInProgress(): void;
  enteredEnded(status: CallStatus): void;
  /** Stops the running script, if any, and starts `start`. */
  startScript(start: ScriptStart): void;
}

/** The machine's input and context. */
export interface CallMachineInput {
  call: CallHooks;
}

export type CallMachineEvent =
  | { type: 'RING' }
  | { type: 'ANSWER' }
  | { type: 'END'; status: CallStatus }
  | { type: 'RUN'; start: ScriptStart };

const runScript = ({ context, event }: { context: CallMachineInput; event: CallMachineEvent }): void => {
  if (event.type === 'RUN') context.call.startScript(event.start);
};

/**
 * A call's lifecycle: queued -> ringing (outbound `dialing` on RING; inbound `ringing`) ->
 * in-progress -> ended. RUN starts a script (replacing the running one: live modification)
 * only while the call is live; entering `ended` stops the script. One flat machine per call
 * with status transitions only keeps actors small and fast: an inbound call with a document
 * to run is born `ringing` (see `ringingCallMachine`), so it takes no event to get there. The
 * outbound ring timeout is a timer of the call on the engine clock: calls share one actor
 * system, whose scheduler scans every pending delayed event of the system whenever an actor
 * stops.
 */
function createCallMachine(initial: 'queued' | 'ringing') {
  return setup({
    types: {
      context: {} as CallMachineInput,
      input: {} as CallMachineInput,
      events: {} as CallMachineEvent,
    },
  }).createMachine({
    id: 'call',
    context: ({ input }) => input,
    initial,
    states: {
      queued: {
        on: { RING: 'dialing', END: 'ended' },
      },
      dialing: {
        entry: ({ context }) => context.call.enteredDialing(),
        on: { ANSWER: 'inProgress', END: 'ended' },
      },
      ringing: {
        entry: ({ context }) => context.call.enteredRinging(),
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
}

/** Outbound calls, and inbound calls that cannot ring (no document to run). */
export const callMachine = createCallMachine('queued');

/** Inbound calls with a document to run: they ring (and run it) as soon as their actor starts. */
export const ringingCallMachine = createCallMachine('ringing');

/**
 * Parent of an engine's call actors, so that they share one actor system (and its clock)
 * instead of each building its own. Ended calls report to it and are forgotten; an error
 * escaping a call's machine is rethrown, so xstate reports it as it would for a root actor.
 */
const callSupervisor = fromTransition((state: null, event: { type: string; error?: unknown }) => {
  if (event.type.startsWith('xstate.error.actor')) throw event.error;
  return state;
}, null);

/** Starts the parent of an engine's call actors on `clock` (see `callSupervisor`). */
export function startCallSystem(clock: Clock): AnyActorRef {
  return createActor(callSupervisor, { clock }).start();
}
