import type { QueueInfo, QueueListener, QueueSnapshot } from '../queue/index.js';
import { Call } from './call.js';
import { type AcceptCallOptions, inboundSetup, outboundSetup } from './call-setups.js';
import type { Clock } from './clock/clock.js';
import { RealClock } from './clock/real-clock.js';
import { DEFAULT_EPOCH, VirtualClock } from './clock/virtual-clock.js';
import { attachConferencePeers } from './conference-join.js';
import type { ConferencePeers } from './conference-peers.js';
import {
  type ConferenceInfo,
  ConferenceRooms,
  muteParticipant,
  type ParticipantInfo,
} from './conferences.js';
import { checkCreateCall } from './create-call-schema.js';
import { EngineError } from './errors.js';
import { createFetcher, type FetcherCloseOptions, type HttpFetcherOptions } from './fetcher.js';
import { HandlerRegistry } from './handlers.js';
import { prepareScript } from './interpreter.js';
import { modifyLiveCall } from './modify-call.js';
import type { ModifyCallInput } from './modify-call-schema.js';
import { splitTarget } from './params.js';
import type { CallLine } from './ports/call-line.js';
import type { Telephony } from './ports/telephony.js';
import { type EngineQueueOptions, QueueService } from './queues/service.js';
import type { CallRecord, RecordSink } from './records.js';
import { redactingListener } from './redact-events.js';
import { runUntilVerb, runUntilWaitingForInput, virtualClock } from './run-until.js';
import { Runtime } from './runtime.js';
import { defaultSettings, type EngineSettings } from './settings.js';
import { numberSid, randomSids, seededSids, skippingSids } from './sids.js';
import type {
  CreateCallParams,
  DefaultParty,
  EngineEventListener,
  IncomingCallOptions,
  NumberConfig,
  PartyBehaviour,
  RcmlHandler,
} from './types.js';

/** Options of `createEngine`. */
export interface EngineOptions {
  /** `virtual` (default): deterministic time driven by `advance`/`runUntil*`; `real`: wall clock. */
  clock?: 'virtual' | 'real';
  /** Start of virtual time, ms since epoch. Default 2024-01-01T00:00:00Z. */
  epoch?: number;
  /** Seed of the sid generator; without it sids are random. */
  seed?: number;
  /**
   * Whether a sid is already held (by a store a previous run filled): the generator draws past
   * it, so a seeded run started again over the same records never reuses, and so never
   * overwrites, one of them.
   */
  sidTaken?: (sid: string) => boolean;
  /** Account owning every call. Default a sid drawn from the generator. */
  accountSid?: string;
  /** `InstanceId` of calls. Default `rcml-engine`. */
  instanceId?: string;
  /** Receives every record as it is created or changes. */
  sink?: RecordSink;
  /** Inspection hook: statuses, verbs, requests, responses, party input. */
  onEvent?: EngineEventListener;
  /** Behaviour of parties without one of their own (or a function of the call). Default: answer at once. */
  defaultParty?: DefaultParty;
  /** Media constants (speaking rate, default Play length...). */
  settings?: Partial<EngineSettings>;
  /**
   * HTTP client options: idle timeout, total deadline, body caps, redirects, the grace of
   * `close()`, the egress policy and a hook that sees every outgoing request.
   */
  http?: HttpFetcherOptions;
  /** Keep ended calls' records for `getCall`/`listCalls`. Default true. */
  retainCalls?: boolean;
  /** Call queues: the store behind them and the size limit of new queues (1..5000, default 100). */
  queues?: EngineQueueOptions;
  /**
   * Conference rooms: `peers` makes a room name of an account one room across the nodes of a
   * cluster (see `ConferencePeers`). Default: rooms of this engine alone.
   */
  conferences?: { peers?: ConferencePeers };
  /**
   * How calls are placed and lines joined (see `Telephony`, docs/telephony.md): an
   * implementation, or a function given the simulated parties' one to delegate to. Default:
   * the simulated parties.
   */
  telephony?: Telephony | ((simulated: Telephony) => Telephony);
}

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
    this.clock =
      options.clock === 'real' ? new RealClock() : new VirtualClock(options.epoch ?? DEFAULT_EPOCH);
    const drawn = options.seed === undefined ? randomSids() : seededSids(options.seed);
    const sids = options.sidTaken ? skippingSids(drawn, options.sidTaken) : drawn;
    this.rt = new Runtime(
      this.clock,
      sids,
      options.sink ?? {},
      options.accountSid ?? sids.next('AC'),
      options.instanceId ?? 'rcml-engine',
      { ...defaultSettings, ...options.settings },
      createFetcher(this.handlers, { ordered: options.clock !== 'real', ...options.http }),
      options.defaultParty ?? { outcome: 'answer', answerAfter: 0 },
      redactingListener(options.onEvent),
      prepareScript,
    );
    this.rt.retainCalls = options.retainCalls ?? true;
    const telephony = options.telephony;
    if (telephony)
      this.rt.telephony = typeof telephony === 'function' ? telephony(this.rt.telephony) : telephony;
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
    return this.inbound(from, to, options);
  }

  /**
   * A call arrives on `line`, a line of the embedder's (a SIP INVITE, a media server's
   * channel): it runs as `incomingCall` does for a simulated caller. The call rings while the
   * number's voice URL is fetched and is answered (`line.answer()`) by the document's first
   * answering verb; a number without configuration gives a `failed` call, a notification and
   * `line.end('failed', 'unknown-number')`.
   */
  acceptCall(options: AcceptCallOptions): Readonly<CallRecord> {
    return this.inbound(options.from, options.to, options, options.line);
  }

  /** True when inbound calls to `number` have an application (`setNumber`). */
  hasNumber(number: string): boolean {
    return this.numbers.has(number);
  }

  private inbound(
    from: string,
    to: string,
    options: IncomingCallOptions,
    line?: CallLine,
  ): Readonly<CallRecord> {
    this.assertOpen();
    const record = this.rt.newCallRecord('inbound', from, to);
    const number = this.numbers.get(to);
    const owner = number?.accountSid ?? options.accountSid;
    if (owner) record.accountSid = owner;
    record.callerName = options.callerName;
    record.forwardedFrom = options.forwardedFrom;
    record.phoneNumberSid = number?.sid;
    const call = new Call(this.rt, inboundSetup(this.rt, record, from, number, options, line));
    this.rt.live.set(record.sid, call);
    if (!number) {
      this.rt.notify(record.sid, 'engine.unknown-number', 0, `no voice configuration for number '${to}'`);
      call.end('failed', 'engine', 'unknown-number');
      return record;
    }
    call.begin();
    return record;
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
