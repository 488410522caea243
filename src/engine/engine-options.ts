import type { Call } from './call.js';
import type { Clock } from './clock/clock.js';
import { RealClock } from './clock/real-clock.js';
import { DEFAULT_EPOCH, VirtualClock } from './clock/virtual-clock.js';
import type { ConferencePeers } from './conference-peers.js';
import { createFetcher, type HttpFetcherOptions } from './fetcher.js';
import type { HandlerRegistry } from './handlers.js';
import { prepareScript } from './interpreter.js';
import type { Telephony } from './ports/telephony.js';
import type { EngineQueueOptions } from './queues/service.js';
import type { RecordSink } from './records.js';
import { redactingListener } from './redact-events.js';
import { Runtime } from './runtime.js';
import { defaultSettings, type EngineSettings } from './settings.js';
import { randomSids, seededSids, skippingSids } from './sids.js';
import type { DefaultParty, EngineEventListener } from './types.js';

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
  /**
   * How many more live calls the account may have now: a Dial places no leg past it (each
   * refused target gets warning 13225). Default: no limit.
   */
  liveCallRoom?: (accountSid: string) => number;
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
 * The runtime an engine's options describe: its clock, sids, records, HTTP client (requests to
 * `handlers` served in process), parties and telephony; it hands `prepareScript` to its calls.
 */
export function engineRuntime(options: EngineOptions, handlers: HandlerRegistry): Runtime<Call> {
  const clock: Clock =
    options.clock === 'real' ? new RealClock() : new VirtualClock(options.epoch ?? DEFAULT_EPOCH);
  const drawn = options.seed === undefined ? randomSids() : seededSids(options.seed);
  const sids = options.sidTaken ? skippingSids(drawn, options.sidTaken) : drawn;
  const rt = new Runtime<Call>(
    clock,
    sids,
    options.sink ?? {},
    options.accountSid ?? sids.next('AC'),
    options.instanceId ?? 'rcml-engine',
    { ...defaultSettings, ...options.settings },
    createFetcher(handlers, { ordered: options.clock !== 'real', ...options.http }),
    options.defaultParty ?? { outcome: 'answer', answerAfter: 0 },
    redactingListener(options.onEvent),
    prepareScript,
  );
  rt.retainCalls = options.retainCalls ?? true;
  rt.liveCallRoom = options.liveCallRoom;
  const telephony = options.telephony;
  if (telephony) rt.telephony = typeof telephony === 'function' ? telephony(rt.telephony) : telephony;
  return rt;
}
