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

export type CallMachineEvent =
  | { type: 'RING' }
  | { type: 'ANSWER' }
  | { type: 'END'; status: CallStatus }
  | { type: 'RUN'; start: ScriptStart };

type CallState = 'queued' | 'dialing' | 'ringing' | 'inProgress' | 'ended';

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

const NOT_STARTED = 0;
const RUNNING = 1;
const STOPPED = 2;

/**
 * A call's lifecycle: queued -> ringing (outbound `dialing` on RING; inbound `ringing`) ->
 * in-progress -> ended. RUN starts a script (replacing the running one: live modification)
 * only while the call is live; entering `ended` stops the script and the machine.
 *
 * A flat machine with status transitions only, run as an actor runs its logic: one event at a
 * time, to completion; an event sent while one is processed (a hook answering or ending the
 * call), or before the start, waits its turn in the mailbox; once ended, or failed, events are
 * dropped. An error escaping a hook stops the machine and is rethrown outside the run, as an
 * actor reports an error nobody handles. Plain state rather than an xstate actor per call: the
 * actor's runtime (mailbox, scope closures, observer set, listener map, its options spread
 * through V8's slow path) made about a quarter of a short call's CPU and a third of a parked
 * call's heap, for a machine of five states with no delayed events, children or observers.
 *
 * An inbound call with a document to run is born `ringing`, so it takes no event to get there
 * (its entry hook runs on start). The outbound ring timeout is a timer of the call on the
 * engine clock.
 */
export class CallMachine {
  private state: CallState;
  private status: typeof NOT_STARTED | typeof RUNNING | typeof STOPPED = NOT_STARTED;
  /** Events waiting for the one being processed (or for the start); null when none wait. */
  private mailbox: CallMachineEvent[] | null = null;
  private busy = false;

  constructor(
    private readonly call: CallHooks,
    initial: 'queued' | 'ringing',
  ) {
    this.state = initial;
  }

  /** Enters the initial state (runs its hook), then the events sent before or meanwhile. */
  start(): void {
    if (this.status !== NOT_STARTED) return;
    this.status = RUNNING;
    this.busy = true;
    try {
      enter(this.state, this.call, undefined);
    } catch (err) {
      this.fail(err);
      return;
    }
    this.drain();
  }

  send(event: CallMachineEvent): void {
    if (this.status === STOPPED) return;
    if (this.busy || this.status === NOT_STARTED) {
      this.mailbox ??= [];
      this.mailbox.push(event);
      return;
    }
    this.busy = true;
    this.step(event);
    this.drain();
  }

  private drain(): void {
    const mailbox = this.mailbox;
    if (mailbox) {
      // Events sent meanwhile join this same list.
      for (let i = 0; i < mailbox.length && this.status === RUNNING; i++) this.step(mailbox[i]);
      this.mailbox = null;
    }
    this.busy = false;
  }

  private step(event: CallMachineEvent): void {
    try {
      if (event.type === 'RUN') {
        if (RUNS.has(this.state)) this.call.startScript(event.start);
        return;
      }
      const target = TRANSITIONS[this.state][event.type];
      if (!target) return;
      this.state = target;
      // Events sent while the call ends are dropped, as a finished actor drops them.
      if (target === 'ended') this.status = STOPPED;
      enter(target, this.call, event);
    } catch (err) {
      this.fail(err);
    }
  }

  /** Stops the machine and rethrows `err` outside the run (an uncaught error of the process). */
  private fail(err: unknown): void {
    this.status = STOPPED;
    this.mailbox = null;
    this.busy = false;
    setTimeout(() => {
      throw err;
    });
  }
}
