import type { QueueInfo, QueueListener, QueueSnapshot } from '../queue/index.js';
import { Call } from './call.js';
import { type AcceptCallOptions, outboundSetup, voiceRouting } from './call-setups.js';
import type { Clock } from './clock/clock.js';
import type { VirtualClock } from './clock/virtual-clock.js';
import { attachConferencePeers } from './conference-join.js';
import {
  type ConferenceInfo,
  ConferenceRooms,
  muteParticipant,
  type ParticipantInfo,
} from './conferences.js';
import { checkCreateCall } from './create-call-schema.js';
import { type EngineOptions, engineRuntime } from './engine-options.js';
import { EngineError } from './errors.js';
import type { FetcherCloseOptions } from './fetcher.js';
import { sendFinalCallback } from './final-callback.js';
import { HandlerRegistry } from './handlers.js';
import { startInboundCall } from './inbound-call.js';
import { modifyLiveCall } from './modify-call.js';
import type { ModifyCallInput } from './modify-call-schema.js';
import { splitTarget } from './params.js';
import { QueueService } from './queues/service.js';
import type { CallRecord } from './records.js';
import { runUntilVerb, runUntilWaitingForInput, virtualClock } from './run-until.js';
import type { Runtime } from './runtime.js';
import { numberSid } from './sids.js';
import type {
  CreateCallParams,
  DefaultParty,
  IncomingCallOptions,
  NumberConfig,
  PartyBehaviour,
  RcmlHandler,
} from './types.js';

export type { EngineOptions } from './engine-options.js';

/**
 * Runs calls: fetches RCML (over HTTP or from in-process handlers) and executes it, with
 * simulated parties at the other end. Create one with `createEngine`.
 */
export class Engine {
  /** The engine's clock (a `VirtualClock` unless `clock: 'real'`). */
  readonly clock: Clock;
  private readonly rt: Runtime<Call>;
  private readonly handlers = new HandlerRegistry();
  private readonly numbers = new Map<string, NumberConfig>();
  private closed = false;
  private readonly queues: QueueService;

  constructor(options: EngineOptions = {}) {
    this.rt = engineRuntime(options, this.handlers);
    this.clock = this.rt.clock;
    this.queues = new QueueService(this.rt, options.queues);
    if (options.conferences?.peers) attachConferencePeers(this.rt, options.conferences.peers);
  }

  /** Account sid of the engine's calls. */
  get accountSid(): string {
    return this.rt.accountSid;
  }

  /** Current clock time, ms since epoch. */
  now(): number {
    return this.clock.now();
  }

  /** Serves requests for `urlOrPrefix` in process (a key ending in `/` or `*` is a prefix). */
  registerHandler(urlOrPrefix: string, handler: RcmlHandler): void {
    this.handlers.register(urlOrPrefix, handler);
  }

  /** Routes inbound calls to `number` to its voice URL (a number given no `sid` gets a stable one). */
  setNumber(number: string, config: NumberConfig): void {
    // Every routed number has a sid, reported as its inbound calls' `phoneNumberSid`.
    this.numbers.set(number, config.sid ? config : { ...config, sid: numberSid(number) });
  }

  /** How inbound calls to `number` are routed (its owning account included); undefined when not routed. */
  numberConfig(number: string): Readonly<NumberConfig> | undefined {
    return this.numbers.get(number);
  }

  /** Stops routing inbound calls to `number`; false when it had no configuration. */
  removeNumber(number: string): boolean {
    return this.numbers.delete(number);
  }

  /** Sets how the party at `address` (number, `client:` or `sip:` address) behaves. */
  setParty(address: string, behaviour: PartyBehaviour): void {
    this.rt.parties.set(address, behaviour);
  }

  /** Sets the behaviour of parties without one of their own: one for all, or a function of the call. */
  setDefaultParty(behaviour: DefaultParty): void {
    this.rt.defaultParty = behaviour;
  }

  /**
   * Places a call `at` seconds from now (clock time): inbound from `from` to `to`, or outbound
   * with the POST Calls parameters in `api`. Resolves with its record when placed; rejects as
   * `createCall`/`incomingCall` would throw then.
   */
  scheduleCall(
    call:
      | { at: number; from: string; to: string; options?: IncomingCallOptions }
      | { at: number; api: CreateCallParams },
  ): Promise<Readonly<CallRecord>> {
    this.assertOpen();
    if (!(Number.isFinite(call.at) && call.at >= 0))
      throw new EngineError('invalid-params', `at: must be a number of seconds >= 0, got ${call.at}`);
    return new Promise((resolve, reject) => {
      this.clock.setTimeout(() => {
        try {
          resolve(
            'api' in call ? this.createCall(call.api) : this.incomingCall(call.from, call.to, call.options),
          );
        } catch (err) {
          reject(err);
        }
      }, call.at * 1000);
    });
  }

  /**
   * Runs virtual time until the call starts the verb `verb` (e.g. `Gather`, `Dial`; nested
   * prompts count), for at most `limitSeconds` (default 1 day). True when it did; false when the
   * call ended, nothing was left to run, or the limit passed first.
   */
  runUntilVerb(callSid: string, verb: string, limitSeconds?: number): Promise<boolean> {
    return runUntilVerb(this.rt, callSid, verb, limitSeconds);
  }

  /**
   * Runs virtual time until the call waits for party input (a Gather or Record listening), for
   * at most `limitSeconds` (default 1 day). True when it does; false when it ended, nothing was
   * left to run, or the limit passed first.
   */
  runUntilWaitingForInput(callSid: string, limitSeconds?: number): Promise<boolean> {
    return runUntilWaitingForInput(this.rt, callSid, limitSeconds);
  }

  /** Places an outbound call (the platform's POST Calls); the record is returned at once, `queued`. */
  createCall(params: CreateCallParams): Readonly<CallRecord> {
    this.assertOpen();
    const { timeout, events } = checkCreateCall(params);
    const target = splitTarget(params.To);
    const headers = params.headers || target.headers ? { ...target.headers, ...params.headers } : undefined;
    const record = this.rt.newCallRecord('outbound-api', params.From, params.To);
    if (params.accountSid) record.accountSid = params.accountSid;
    const call = new Call(this.rt, outboundSetup(this.rt, record, params, { timeout, events, headers }));
    this.rt.live.set(record.sid, call);
    call.begin();
    return record;
  }

  /**
   * A party at `from` calls `to`. The call rings while the number's voice URL is fetched; a
   * number without configuration gives a `failed` call and a notification.
   */
  incomingCall(from: string, to: string, options: IncomingCallOptions = {}): Readonly<CallRecord> {
    this.assertOpen();
    return startInboundCall(this.rt, from, to, this.numbers.get(to), options);
  }

  /**
   * A call arrives on `line`, a line of the embedder's (a SIP INVITE, a media server's
   * channel): it runs as `incomingCall` does for a simulated caller. The call rings while the
   * number's voice URL is fetched and is answered (`line.answer()`) by the document's first
   * answering verb; a number without configuration gives a `failed` call, a notification and
   * `line.end('failed', 'unknown-number')`. With `voice` (a client's voice URL) that document
   * runs instead, whatever `to` is, for `accountSid`.
   */
  acceptCall(options: AcceptCallOptions): Readonly<CallRecord> {
    this.assertOpen();
    return startInboundCall(
      this.rt,
      options.from,
      options.to,
      options.voice ? voiceRouting(options.voice) : this.numbers.get(options.to),
      options,
      options.line,
    );
  }

  /** True when inbound calls to `number` have an application (`setNumber`). */
  hasNumber(number: string): boolean {
    return this.numbers.has(number);
  }

  /** The party on a live call presses `keys` now. */
  sendDigits(callSid: string, keys: string): void {
    this.liveCall(callSid).deliver({ kind: 'dtmf', keys });
  }

  /** The party on a live call says `text` now. */
  sendSpeech(callSid: string, text: string): void {
    this.liveCall(callSid).deliver({ kind: 'speech', text });
  }

  /** The party on a live call hangs up (completed if answered, canceled while ringing). */
  hangupParty(callSid: string): void {
    this.liveCall(callSid).partyHangup();
  }

  /**
   * Modifies a live call (the platform's POST Calls/{CallSid}): `Url`/`Method` (+ `FallbackUrl`,
   * `FallbackMethod`) redirect it now, `Status` completed|canceled, `StatusCallback`(`Method`),
   * `Mute`, `MoveConnectedCallLeg`, `ChildCallMode` Hangup|Move|StayConnected. Returns the
   * call's record. Throws `EngineError`: `invalid-params` (names the field), `unknown-call`,
   * `not-modifiable` (the call has ended).
   */
  modifyCall(callSid: string, params: ModifyCallInput): Readonly<CallRecord> {
    this.assertOpen();
    return modifyLiveCall(this.rt, callSid, params);
  }

  /**
   * Mutes or unmutes a conference participant (the platform's
   * POST Conferences/{sid}/Participants/{CallSid}).
   * Throws `unknown-conference` or `unknown-call` (not in that conference).
   */
  muteParticipant(conferenceSid: string, callSid: string, mute: boolean): ParticipantInfo {
    return muteParticipant(this.rt, conferenceSid, callSid, mute);
  }

  /** A conference room (status, participants with mute and hold), or undefined. */
  getConference(conferenceSid: string): ConferenceInfo | undefined {
    return ConferenceRooms.of(this.rt).get(conferenceSid)?.info();
  }

  /**
   * A call queue of an account (default: the engine's) by name: both sides' members in order
   * with position and wait, served count and average wait, size limit. Undefined when no call
   * used it yet.
   */
  async getQueue(name: string, accountSid = this.rt.accountSid): Promise<QueueSnapshot | undefined> {
    const found = (await this.queues.matcher.listQueues(accountSid)).find((q) => q.name === name);
    return found && this.queues.matcher.inspect(found.sid);
  }

  /**
   * Sends the final status callback of a call another node ran and this one closed (its node
   * died; see `src/cluster/takeover.ts`), as its node would have: resolves with the HTTP status,
   * 0 when it failed, undefined when its record asks for none.
   */
  sendFinalCallback(closed: Readonly<CallRecord>): Promise<number | undefined> {
    return sendFinalCallback(this.rt, closed, this.rt.clock.now());
  }

  /**
   * The shared queue store lost its queues (Redis restarted empty): the calls waiting in queues
   * on this engine arrive again (see `QueueService.restore`). Returns how many were put back.
   */
  restoreQueues(): Promise<number> {
    return this.queues.restore();
  }

  /** An account's queues (default: the engine's), in creation order. */
  listQueues(accountSid = this.rt.accountSid): Promise<QueueInfo[]> {
    return this.queues.matcher.listQueues(accountSid);
  }

  /** A queue's state by sid (both sides in order, served counts, limit); undefined when unknown. */
  async inspectQueue(queueSid: string): Promise<QueueSnapshot | undefined> {
    if (!(await this.queues.matcher.getQueue(queueSid))) return undefined;
    return this.queues.matcher.inspect(queueSid);
  }

  /** Changes a queue's size limit (1..5000); members already waiting stay. */
  setQueueMaxSize(queueSid: string, maxSize: number): Promise<QueueInfo> {
    return this.queues.matcher.setMaxSize(queueSid, maxSize);
  }

  /** Follows the queue matcher's events (enqueue, match, leave...); returns the unsubscribe. */
  subscribeQueues(listener: QueueListener): () => void {
    return this.queues.matcher.subscribe(listener);
  }

  /** Every conference room of this engine, in creation order. */
  listConferences(): ConferenceInfo[] {
    return ConferenceRooms.of(this.rt)
      .list()
      .map((room) => room.info());
  }

  /** A call's record, or undefined. */
  getCall(sid: string): Readonly<CallRecord> | undefined {
    return this.rt.records.get(sid);
  }

  /** Every retained call record, in creation order. */
  listCalls(): ReadonlyArray<Readonly<CallRecord>> {
    return [...this.rt.records.values()];
  }

  /** Number of calls not yet ended. */
  get liveCount(): number {
    return this.rt.live.size;
  }

  /**
   * The live call object, for layers that extend the engine (Dial, queues, live modification).
   * Throws `unknown-call` when the sid is not a live call.
   */
  liveCall(callSid: string): Call {
    const call = this.rt.live.get(callSid);
    if (!call) throw new EngineError('unknown-call', `no live call with sid '${callSid}'`);
    return call;
  }

  /** Advances virtual time by `seconds`, running everything due on the way. */
  advance(seconds: number): Promise<void> {
    return this.virtual().advance(seconds);
  }

  /** Runs virtual time up to `time` (ms since epoch). */
  runUntil(time: number): Promise<void> {
    return this.virtual().runUntil(time);
  }

  /**
   * Runs until nothing is pending (or `limitSeconds` of virtual time, default 7 days, passed).
   * Returns true when idle was reached.
   */
  runUntilIdle(limitSeconds?: number): Promise<boolean> {
    return this.virtual().runUntilIdle(limitSeconds);
  }

  /**
   * Hangs up every live call (aborting their requests in flight), lets the requests still in
   * flight (final status callbacks) finish within the grace (`graceMs`, default
   * `http.closeGraceMs`, 3 s), aborts the rest and closes HTTP connections: it always returns.
   */
  async close(options: FetcherCloseOptions = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const call of [...this.rt.live.values()]) {
      call.end(call.record.status === 'in-progress' ? 'completed' : 'canceled', 'engine', 'shutdown');
    }
    await this.rt.fetcher.close(options);
    await this.clock.whenSettled();
  }

  private virtual(): VirtualClock {
    return virtualClock(this.clock);
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineError('closed', 'the engine is closed');
  }
}

/** Creates an engine. */
export function createEngine(options: EngineOptions = {}): Engine {
  return new Engine(options);
}
