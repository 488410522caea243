import { type CallHooks, CallMachine, type ScriptStart } from './call-machine.js';
import { CallSlot } from './call-slot.js';
import type { TimerHandle } from './clock/clock.js';
import { iso } from './dates.js';
import type { InterruptReason } from './errors.js';
import { abortReason, RequestScope } from './fetcher.js';
import { type SipHeaders, screeningParams, voiceParams } from './params.js';
import type { CallLine, CallLineEvents, LineEndReason } from './ports/call-line.js';
import type { DialAttempt, DialEvents, DialFailure } from './ports/telephony.js';
import type { CallEndedBy, CallRecord, CallStatus } from './records.js';
import type { CallScript, Runtime } from './runtime.js';
import type { CallInputs } from './simulated-line.js';
import { type CallEventName, callbackParams, type StatusCallbackConfig } from './status-callbacks.js';

/** Media state of a call: muted (silent, no record) and held (Hold/Resume, with records). */
export interface MediaState {
  muted: boolean;
  held: boolean;
}

const callEnded = (): Error => abortReason('aborted: the call ended');

/** Media state of every call that was never muted or held: shared, so a call holds none. */
const PLAIN_MEDIA: Readonly<MediaState> = Object.freeze({ muted: false, held: false });

/** The bridge a call is in, as far as the call needs to know (see `bridge.ts`). */
export interface CallBridge {
  readonly a: Call;
  readonly b: Call;
  /** Ends the bridge now; the party that started it decides what happens to each leg. */
  end(reason: 'modified'): void;
  /** What happens to the other leg when the bridging verb's script is stopped. */
  release: 'hangup' | 'keep';
}

/** How a call is set up; the engine's createCall / incomingCall fill it in. */
export interface CallSetup {
  record: CallRecord;
  /** The line of an inbound call (a simulated party's, or a real one); outbound calls dial theirs. */
  line?: CallLine;
  /** Document run when the call starts (inbound) or is answered (outbound); none for Dial legs. */
  first?: ScriptStart;
  outbound: boolean;
  ringTimeoutMs: number;
  callbacks?: StatusCallbackConfig;
  headers?: SipHeaders;
}

/** An absolute URL with a user (and password) before its host. */
const URL_WITH_CREDENTIALS = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

/**
 * One live call: its record, its lifecycle machine, its line to the far end (see `CallLine`) and
 * the single pending wait of its script. The script is sequential, so one wait slot suffices
 * and no per-wait listeners exist.
 */
export class Call extends CallSlot implements CallHooks, CallLineEvents, CallInputs {
  readonly record: CallRecord;
  readonly ringTimeoutMs: number;
  readonly headers: SipHeaders | undefined;
  private statusCallbacks: StatusCallbackConfig | undefined;
  /** The bridge this call is in, if any. */
  bridge: CallBridge | null = null;
  /** Conference sid this call takes part in, if any. */
  conferenceSid: string | null = null;
  /** The latest Dial leg of this call (`OutboundCallSid` of its requests from then on). */
  outboundCallSid: string | undefined;
  private mediaState: Readonly<MediaState> = PLAIN_MEDIA;
  private machine: CallMachine | null;
  private attempt: DialAttempt | null = null;
  private endReason: LineEndReason | undefined;
  private first: ScriptStart | null;
  private readonly outbound: boolean;
  private sequence = 0;
  private script: CallScript | null = null;
  private parallel: CallScript | null = null;
  private stopReason: InterruptReason = 'replaced';
  private watchers: Array<(call: Call) => void> | null = null;
  private started = false;
  private ringTimer: TimerHandle | null = null;
  private requests: RequestScope | null = null;
  private over = false;

  constructor(
    readonly rt: Runtime<Call>,
    setup: CallSetup,
  ) {
    super();
    this.record = setup.record;
    this.first = setup.first ?? null;
    this.outbound = setup.outbound;
    this.ringTimeoutMs = setup.ringTimeoutMs;
    if (setup.callbacks) this.callbacks = setup.callbacks;
    this.headers = setup.headers;
    if (setup.line) {
      this.line = setup.line;
      setup.line.attach(this);
    }
    // Inbound calls with a document to run ring (and run it) as soon as they start.
    const rings = !this.outbound && this.first !== null;
    this.machine = new CallMachine(this, rings ? 'ringing' : 'queued');
  }

  get media(): Readonly<MediaState> {
    return this.mediaState;
  }

  /** Changes the media state (see `media.ts`); a copy, as the unchanged state is shared. */
  setMedia(change: Partial<MediaState>): void {
    this.mediaState = { ...this.mediaState, ...change };
  }

  get ended(): boolean {
    return this.machine === null;
  }

  /** The call's requests, aborted when it ends; made on first use. */
  requestScope(): RequestScope | undefined {
    if (this.over) return undefined;
    this.requests ??= new RequestScope();
    return this.requests;
  }

  /** Starts the call: outbound dials its party, inbound rings and fetches its first document. */
  begin(): void {
    this.startActor();
    if (this.outbound) {
      this.setStatus('queued', 'initiated');
      if (!this.machine) return;
      const r = this.record;
      this.attempt = this.rt.telephony.dial(
        { to: r.to, from: r.from, headers: this.headers, timeout: this.ringTimeoutMs / 1000, call: r },
        this.dialEvents(),
      );
    }
  }

  private startActor(): void {
    if (this.started) return;
    this.started = true;
    this.machine?.start();
  }

  /** What the telephony tells of this call's dial attempt. */
  private dialEvents(): DialEvents {
    return {
      ringing: () => this.ringing(),
      answered: (line) => this.answeredBy(line),
      failed: (status) => this.dialFailed(status),
    };
  }

  private ringing(): void {
    if (!this.machine) return;
    this.machine.send({ type: 'RING' });
    if (!this.machine || this.record.status !== 'ringing') return;
    this.ringTimer = this.rt.clock.setTimeout(() => {
      this.ringTimer = null;
      this.end('no-answer', 'timeout');
    }, this.ringTimeoutMs);
  }

  private answeredBy(line: CallLine): void {
    // An answer with no ringing before it (a 200 OK straight away) rings first.
    if (this.machine && this.record.status === 'queued') this.ringing();
    if (!this.machine || this.record.status !== 'ringing') {
      line.end('canceled');
      return;
    }
    this.attempt = null;
    this.line = line;
    line.attach(this);
    this.answer();
  }

  private dialFailed(status: DialFailure): void {
    this.attempt = null;
    this.end(status, status === 'no-answer' ? 'timeout' : 'caller');
  }

  /** Answers the call (inbound: when its first answering verb runs). */
  answer(): void {
    if (!this.machine || this.record.status === 'in-progress') return;
    this.machine.send({ type: 'ANSWER' });
    if (this.first && this.machine) {
      const first = this.first;
      this.first = null;
      this.machine.send({ type: 'RUN', start: first });
    }
  }

  /**
   * Replaces the running script with another document (redirect of a live call). The stopped
   * script's waits are interrupted with `reason` (`replaced`, or `modified` for live modification).
   */
  run(start: ScriptStart, reason: InterruptReason = 'replaced'): void {
    if (!this.machine) return;
    if (this.outbound && this.record.status !== 'in-progress') {
      // Not answered yet: the new document runs when it is.
      this.first = start;
      return;
    }
    this.stopReason = reason;
    this.machine.send({ type: 'RUN', start });
    this.stopReason = 'replaced';
  }

  /**
   * Runs a document beside the current script (live modification with `StayConnected`): the
   * running script keeps going; the end of this document leaves the call as it is.
   */
  runParallel(start: ScriptStart): void {
    if (!this.machine) return;
    this.parallel?.stop('modified');
    const script = this.rt.scripts(this, { ...start, onEnd: () => {} });
    this.parallel = script;
    script.begin();
  }

  /** Calls `fn` after every status change of this call; returns the function that stops it. */
  watch(fn: (call: Call) => void): () => void {
    this.watchers ??= [];
    const list = this.watchers;
    list.push(fn);
    return () => {
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /**
   * Ends the call with `status` (completed when answered; failed/busy/no-answer/canceled
   * otherwise); `reason` tells the line more (Reject's `rejected`, an unknown number).
   */
  end(status: CallStatus, by: CallEndedBy = 'application', reason?: LineEndReason): void {
    if (!this.machine) return;
    this.record.endedBy ??= by;
    this.endReason ??= reason;
    // A call that never began (an unknown number) ends from `queued`.
    this.startActor();
    this.machine?.send({ type: 'END', status });
  }

  /** The party hangs up: completed once answered, canceled while ringing. */
  partyHangup(): void {
    this.end(this.record.status === 'in-progress' ? 'completed' : 'canceled', 'caller');
  }

  /** The line reports the far end hung up (`CallLineEvents`). */
  hangup(): void {
    this.partyHangup();
  }

  // --- machine hooks ---

  enteredDialing(): void {
    this.setStatus('ringing', 'ringing');
  }

  enteredRinging(): void {
    this.setStatus('ringing', 'ringing');
    const first = this.first;
    this.first = null;
    if (first && this.machine) this.startScript(first);
  }

  enteredInProgress(): void {
    this.clearRingTimer();
    this.record.startTime = this.rt.clock.now();
    this.setStatus('in-progress', 'answered');
    this.line?.answer();
  }

  enteredEnded(status: CallStatus): void {
    // Requests in flight stop now; the final status callback, sent below, is not bound.
    this.over = true;
    this.requests?.end(callEnded);
    const now = this.rt.clock.now();
    const r = this.record;
    r.endTime = now;
    r.duration = r.startTime === undefined ? 0 : Math.ceil((now - r.startTime) / 1000);
    this.machine = null;
    this.clearRingTimer();
    this.inputs = null;
    this.attempt?.cancel();
    this.attempt = null;
    this.stopMedia();
    this.line?.end(status, this.endReason);
    this.setStatus(status, 'completed');
    this.rt.ended(this);
    this.parallel?.stop('ended');
    this.parallel = null;
    const script = this.script;
    this.script = null;
    if (script) script.stop();
    else this.interrupt('ended');
  }

  private clearRingTimer(): void {
    if (this.ringTimer) this.rt.clock.clearTimeout(this.ringTimer);
    this.ringTimer = null;
  }

  startScript(start: ScriptStart): void {
    this.script?.stop(this.stopReason);
    const script = this.rt.scripts(this, start);
    this.script = script;
    script.begin();
  }

  // --- status and callbacks ---

  get callbacks(): StatusCallbackConfig | undefined {
    return this.statusCallbacks;
  }

  /**
   * Kept in the record too (see `CallRecord.statusCallback`), unless its URL carries credentials:
   * records never hold a secret (such a call's final callback is its own node's alone to send).
   */
  set callbacks(cb: StatusCallbackConfig | undefined) {
    this.statusCallbacks = cb;
    if (cb && !URL_WITH_CREDENTIALS.test(cb.url)) {
      this.record.statusCallback = { url: cb.url, method: cb.method, events: [...cb.events] };
    } else delete this.record.statusCallback;
  }

  private setStatus(status: CallStatus, event: CallEventName): void {
    const r = this.record;
    const now = this.rt.clock.now();
    r.status = status;
    r.dateUpdated = now;
    this.rt.sink.call?.(r);
    this.rt.listener?.(
      event === 'completed'
        ? { type: 'call-status', at: now, callSid: r.sid, status, direction: r.direction, endedBy: r.endedBy }
        : { type: 'call-status', at: now, callSid: r.sid, status, direction: r.direction },
    );
    if (this.watchers) for (const fn of [...this.watchers]) fn(this);
    const cb = this.callbacks;
    if (cb?.events.has(event)) {
      const params = callbackParams(
        this.params(),
        now,
        this.sequence++,
        event === 'completed' ? r.duration : undefined,
      );
      this.rt.request(r.sid, 'status-callback', cb.url, cb.method, params, 'callback').then((res) => {
        if (res.status < 200 || res.status >= 300) {
          const why = res.status === 0 ? res.error : `HTTP ${res.status}`;
          this.rt.notify(r.sid, '11205', 1, `status callback failed: ${why}`, cb.url);
        }
      });
    }
  }

  /**
   * Parameters of a request about this call. `OutboundCallSid` once a Dial leg exists, as the
   * platform's VoiceInterpreter.parameters() sends it.
   */
  params(extra?: Record<string, string>): Record<string, string> {
    // Formatted for each request (\`iso\` keeps the last one): a string per call held no longer.
    const params = voiceParams(this.record, this.headers, iso(this.record.dateCreated));
    if (this.outboundCallSid) params.OutboundCallSid = this.outboundCallSid;
    return extra ? Object.assign(params, extra) : params;
  }

  /** Parameters of the requests of a screening document run on this (callee) call. */
  screeningParams(extra?: Record<string, string>): Record<string, string> {
    const params = screeningParams(this.record, this.headers);
    return extra ? Object.assign(params, extra) : params;
  }
}
