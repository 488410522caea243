import type { HttpMethod, ParseResult } from '../rcml/model.js';
import { parseRcml } from '../rcml/parse.js';
import type { ScriptStart } from './call-machine.js';
import type { Clock } from './clock/clock.js';
import type { InterruptReason } from './errors.js';
import { type BodyUse, type Fetcher, type FetchResult, type RequestScope, redactUrl } from './fetcher.js';
import { numericNotification } from './notification-codes.js';
import type { Telephony } from './ports/telephony.js';
import {
  API_VERSION,
  type CallDirection,
  type CallRecord,
  type NotificationRecord,
  type RecordSink,
} from './records.js';
import type { EngineSettings } from './settings.js';
import type { SidGenerator } from './sids.js';
import { SimulatedTelephony } from './simulated-telephony.js';
import {
  type DefaultParty,
  type EngineEventListener,
  type PartyBehaviour,
  RESPONSE_BODY_CAP,
  type RequestKind,
} from './types.js';

const PARSE_CACHE_SIZE = 256;
const URL_CACHE_SIZE = 1024;

const nextTurn = <T>(value: T): Promise<T> => new Promise((resolve) => setImmediate(resolve, value));

/** A live call as the runtime keeps it (the call layer's `Call`). */
export interface LiveCall {
  readonly record: CallRecord;
  /**
   * The call's requests: those still in flight stop when it ends. Undefined once it has ended
   * (a request made after the end is not bound to the call).
   */
  requestScope(): RequestScope | undefined;
}

/** A script prepared for a call: `begin` starts running it, `stop` ends it. */
export interface CallScript {
  begin(): void;
  stop(reason?: InterruptReason): void;
}

/**
 * Prepares the script that runs `start` on `call`. The interpreter, handed down by the engine,
 * so that the call knows nothing of verbs.
 */
export type ScriptFactory<C> = (call: C, start: ScriptStart) => CallScript;

/**
 * Services shared by every call of one engine: clock, sids, records, requests, notifications,
 * parties. Internal: the public face is `Engine`. `C` is the engine's call type.
 */
export class Runtime<C extends LiveCall = LiveCall> {
  /** Seconds of media per URL, learnt from WAV headers. */
  readonly mediaSeconds = new Map<string, number>();
  private readonly parsed = new Map<string, ParseResult>();
  /** Resolved URLs by base and reference ('' when invalid): scripts resolve the same ones. */
  private readonly resolved = new Map<string, Map<string, string>>();
  private readonly validUrls = new Set<string>();
  readonly parties = new Map<string, PartyBehaviour>();
  /** Calls not yet ended, by sid. */
  readonly live = new Map<string, C>();
  /** Every call's record, by sid, in creation order (unless `retainCalls` is off). */
  readonly records = new Map<string, CallRecord>();
  retainCalls = true;
  /** How many more live calls an account may have (Dial places no leg past it); unset: no limit. */
  liveCallRoom: ((accountSid: string) => number) | undefined;
  /** How calls are placed and lines joined: the simulated parties unless the engine was given one. */
  telephony: Telephony = new SimulatedTelephony(this);
  private requestCount = 0;

  constructor(
    readonly clock: Clock,
    readonly sids: SidGenerator,
    readonly sink: RecordSink,
    readonly accountSid: string,
    readonly instanceId: string,
    readonly settings: EngineSettings,
    readonly fetcher: Fetcher,
    public defaultParty: DefaultParty,
    /** The inspection hook; the engine swaps it to add its own watchers (`runUntilVerb`...). */
    public listener: EngineEventListener | undefined,
    /** Prepares the script of a call (see {@link ScriptFactory}). */
    readonly scripts: ScriptFactory<C>,
  ) {}

  /**
   * Behaviour of the party at `address` on `call`: exact match, then without URI parameters,
   * then the default (a behaviour, or a function of the call).
   */
  party(address: string, call: Readonly<CallRecord>): PartyBehaviour {
    const exact = this.parties.get(address);
    if (exact) return exact;
    const q = address.indexOf('?');
    if (q >= 0) {
      const bare = this.parties.get(address.slice(0, q));
      if (bare) return bare;
    }
    const fallback = this.defaultParty;
    return typeof fallback === 'function' ? fallback(call, address) : fallback;
  }

  /** A new `queued` call record (kept in `records` unless calls are not retained). */
  newCallRecord(direction: CallDirection, from: string, to: string): CallRecord {
    const now = this.clock.now();
    const record: CallRecord = {
      sid: this.sids.next('CA'),
      accountSid: this.accountSid,
      direction,
      from,
      to,
      status: 'queued',
      instanceId: this.instanceId,
      apiVersion: API_VERSION,
      dateCreated: now,
      dateUpdated: now,
    };
    if (this.retainCalls) this.records.set(record.sid, record);
    return record;
  }

  /** A call has ended: it leaves the live set (its record stays unless not retained). */
  ended(call: C): void {
    this.live.delete(call.record.sid);
    if (!this.retainCalls) this.records.delete(call.record.sid);
  }

  /** Parses RCML, reusing the result for a body seen recently (documents are immutable values). */
  parse(xml: string): ParseResult {
    const hit = this.parsed.get(xml);
    if (hit) return hit;
    const result = parseRcml(xml);
    if (this.parsed.size >= PARSE_CACHE_SIZE) {
      const oldest = this.parsed.keys().next().value;
      if (oldest !== undefined) this.parsed.delete(oldest);
    }
    this.parsed.set(xml, result);
    return result;
  }

  /** `url` (trimmed) resolved against `base`, or undefined when it is not a valid URI. */
  resolveUrl(url: string, base: string): string | undefined {
    let byRef = this.resolved.get(base);
    if (!byRef) {
      if (this.resolved.size >= URL_CACHE_SIZE) this.resolved.clear();
      byRef = new Map();
      this.resolved.set(base, byRef);
    }
    let hit = byRef.get(url);
    if (hit === undefined) {
      try {
        hit = new URL(url.trim(), base).toString();
      } catch {
        hit = '';
      }
      if (byRef.size >= URL_CACHE_SIZE) byRef.clear();
      byRef.set(url, hit);
    }
    return hit === '' ? undefined : hit;
  }

  /** `URL.canParse(url)`, remembering the URLs that passed. */
  isValidUrl(url: string): boolean {
    if (this.validUrls.has(url)) return true;
    if (!URL.canParse(url)) return false;
    if (this.validUrls.size >= URL_CACHE_SIZE) this.validUrls.clear();
    this.validUrls.add(url);
    return true;
  }

  /**
   * Makes a request: logged as `request`/`response` events and tracked by the clock. A request
   * of a live call is aborted if the call ends first, unless `detached` (a fire-and-forget
   * notification, which must reach its URL even when the call is hung up right after); one made
   * after the end (the completed status callback) is not.
   */
  request(
    callSid: string | undefined,
    kind: RequestKind,
    url: string,
    method: HttpMethod,
    params: Record<string, string>,
    use: BodyUse = 'document',
    detached = false,
  ): Promise<FetchResult> {
    const res = this.requestNow(callSid, kind, url, method, params, use, detached);
    return res instanceof Promise ? res : Promise.resolve(res);
  }

  /**
   * `request`, with the answer itself when an in-process handler gave it synchronously and no
   * listener logs requests: no promise, and nothing for the clock to track.
   */
  requestNow(
    callSid: string | undefined,
    kind: RequestKind,
    url: string,
    method: HttpMethod,
    params: Record<string, string>,
    use: BodyUse = 'document',
    detached = false,
  ): FetchResult | Promise<FetchResult> {
    const listener = this.listener;
    const id = ++this.requestCount;
    if (listener) listener({ type: 'request', id, at: this.clock.now(), callSid, kind, url, method, params });
    const call = callSid === undefined ? undefined : this.live.get(callSid);
    const work = this.fetcher.fetch({
      url,
      method,
      params,
      binary: use === 'media',
      use,
      kind,
      scope: detached ? undefined : call,
      accountSid: call?.record.accountSid ?? this.accountOf(callSid, params),
    });
    if (!listener) return work instanceof Promise ? this.clock.track(work) : work;
    // A logged in-process answer comes back in a later macrotask, as an HTTP answer does, so
    // that a trace is the same whether a URL is served in process or over the network.
    const answer = work instanceof Promise ? work : nextTurn(work);
    const logged = answer.then((res) => {
      const at = this.clock.now();
      listener({
        type: 'response',
        id,
        at,
        callSid,
        kind,
        url,
        status: res.status,
        error: res.error,
        ...answerText(res),
      });
      return res;
    });
    return this.clock.track(logged);
  }

  /** The account of a request outside a live call: its call's record, the one it names, the engine's. */
  private accountOf(callSid: string | undefined, params: Record<string, string>): string {
    const record = callSid === undefined ? undefined : this.records.get(callSid);
    return record?.accountSid ?? params.AccountSid ?? this.accountSid;
  }

  /** Records a notification for a call (or the account); URL passwords show as `***`. */
  notify(callSid: string | undefined, libraryCode: string, log: 0 | 1, text: string, url?: string): void {
    // Every notification carries a numeric code; a library code stays in the message.
    const { code, message } = numericNotification(libraryCode, text);
    const record: NotificationRecord = {
      sid: this.sids.next('NO'),
      // A live call's own account (calls may belong to other accounts than the engine's).
      accountSid:
        (callSid === undefined ? undefined : this.live.get(callSid)?.record.accountSid) ?? this.accountSid,
      callSid,
      code,
      log,
      message: redactUrl(message),
      url: url === undefined ? undefined : redactUrl(url),
      dateCreated: this.clock.now(),
    };
    this.sink.notification?.(record);
  }
}

/** The text of an answer as a `response` event carries it: capped, none for binary media. */
function answerText(res: FetchResult): { contentType?: string; body?: string; bodyTruncated?: boolean } {
  if (typeof res.body !== 'string' || res.body === '') return {};
  if (res.body.length <= RESPONSE_BODY_CAP) return { contentType: res.contentType, body: res.body };
  return { contentType: res.contentType, body: res.body.slice(0, RESPONSE_BODY_CAP), bodyTruncated: true };
}
