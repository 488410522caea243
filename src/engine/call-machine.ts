import { type ActorLogic, type AnyActorRef, createActor, fromTransition, type Snapshot } from 'xstate';
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
  /** Called when a Hangup verb ends the call, before it hangs up (Dial screening documents). */
  onHangup?: () => void;
  /** The requests carry the screening parameter set (`Call.screeningParams`). */
  screening?: boolean;
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

/**
 * The machine's input and context: the call it drives itself (not wrapped in an object of its
 * own, which every parked call would hold).
 */
export type CallMachineInput = CallHooks;

export type CallMachineEvent =
  | { type: 'RING' }
  | { type: 'ANSWER' }
  | { type: 'END'; status: CallStatus }
  | { type: 'RUN'; start: ScriptStart };

type CallState = 'queued' | 'dialing' | 'ringing' | 'inProgress' | 'ended';

/** The call actor's snapshot: xstate's status, the lifecycle state and the call it drives. */
export type CallSnapshot = Snapshot<undefined> & { value: CallState; context: CallMachineInput };

/** Status transitions; `RUN` starts a script in the states listed in `RUNS` and stays. */
const TRANSITIONS: Readonly<Record<CallState, Partial<Record<CallMachineEvent['type'], CallState>>>> = {
  queued: { RING: 'dialing', END: 'ended' },
  dialing: { ANSWER: 'inProgress', END: 'ended' },
  ringing: { ANSWER: 'inProgress', END: 'ended' },
  inProgress: { END: 'ended' },
  ended: {},
};
const RUNS: ReadonlySet<CallState> = new Set(['ringing', 'inProgress']);

/** Runs the entry hook of `state`. */
function enter(state: CallState, call: CallHooks, event: CallMachineEvent | undefined): void {
  if (state === 'dialing') call.enteredDialing();
  else if (state === 'ringing') call.enteredRinging();
  else if (state === 'inProgress') call.enteredInProgress();
  else if (state === 'ended') call.enteredEnded(event?.type === 'END' ? event.status : 'completed');
}

/**
 * A call's lifecycle: queued -> ringing (outbound `dialing` on RING; inbound `ringing`) ->
 * in-progress -> ended. RUN starts a script (replacing the running one: live modification)
 * only while the call is live; entering `ended` stops the script and completes the actor.
 *
 * An actor per call, with the lifecycle as a transition table in xstate actor logic rather than
 * a statechart: a flat machine with status transitions only needs no state-node graph, and a
 * statechart's generic microstep (entry and exit sets, transition domains, snapshots) made most
 * of the allocation of a short call. An inbound call with a document to run is born `ringing`,
 * so it takes no event to get there (its entry hook runs when the actor starts). The outbound
 * ring timeout is a timer of the call on the engine clock: calls share one actor system, whose
 * scheduler scans every pending delayed event of the system whenever an actor stops.
 */
/** The actor logic of a call. */
export type CallLogic = ActorLogic<CallSnapshot, CallMachineEvent, CallMachineInput>;

function createCallLogic(initial: 'queued' | 'ringing'): CallLogic {
  return {
    getInitialSnapshot: (_scope, input) => ({
      status: 'active',
      output: undefined,
      error: undefined,
      value: initial,
      context: input,
    }),
    start: (snapshot) => enter(snapshot.value, snapshot.context, undefined),
    transition: (snapshot, event) => {
      if (snapshot.status !== 'active') return snapshot;
      if (event.type === 'RUN') {
        if (RUNS.has(snapshot.value)) snapshot.context.startScript(event.start);
        return snapshot;
      }
      const target = TRANSITIONS[snapshot.value][event.type];
      if (!target) return snapshot;
      const next: CallSnapshot =
        target === 'ended'
          ? { status: 'done', output: undefined, error: undefined, value: target, context: snapshot.context }
          : {
              status: 'active',
              output: undefined,
              error: undefined,
              value: target,
              context: snapshot.context,
            };
      enter(target, snapshot.context, event);
      return next;
    },
    getPersistedSnapshot: (snapshot) => snapshot,
  };
}

/** Outbound calls, and inbound calls that cannot ring (no document to run). */
export const callMachine: CallLogic = createCallLogic('queued');

/** Inbound calls with a document to run: they ring (and run it) as soon as their actor starts. */
export const ringingCallMachine: CallLogic = createCallLogic('ringing');

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
