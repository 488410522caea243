import type { Agent } from 'undici';
import type { HttpMethod } from '../rcml/model.js';
import { guardedAgent } from './fetch/agent.js';
import { type BodyCap, BodyTooLargeError } from './fetch/body.js';
import { EgressDeniedError, EgressGuard, type EgressPolicy } from './fetch/egress.js';
import { ExchangeControl, httpExchange } from './fetch/http.js';
import type { OutgoingHook } from './fetch/outgoing.js';
import { RequestScope } from './fetch/scope.js';
import type { HandlerRegistry } from './handlers.js';
import { signedWith } from './signature.js';
import type { HandlerResponse, RcmlHandler, RequestKind } from './types.js';

export { type GuardedAgentOptions, guardedAgent } from './fetch/agent.js';
export { redactUrl } from './fetch/credentials.js';
export { EgressDeniedError, EgressGuard, type EgressPolicy } from './fetch/egress.js';
export type { OutgoingHook, OutgoingRequest } from './fetch/outgoing.js';
export { RequestScope } from './fetch/scope.js';

/**
 * What a request's answer is read for: a `document` (RCML, capped: past the cap the fetch
 * fails), a `media` probe (only its first bytes, for the WAV header) or a `callback` whose
 * answer nobody reads (its first bytes at most).
 */
export type BodyUse = 'document' | 'media' | 'callback';

/** A request the engine makes: for RCML, media or a callback. */
export interface FetchRequest {
  /** May carry `user:password@`: sent as HTTP Basic authentication, never shown. */
  url: string;
  method: HttpMethod;
  params: Record<string, string>;
  /** Read the body as bytes (media) instead of text. */
  binary?: boolean;
  /** How much of the body is read (default `document`). */
  use?: BodyUse;
  /** What the request is for (told to the {@link OutgoingHook}). */
  kind?: RequestKind;
  /** Aborts the request over HTTP when it aborts. */
  signal?: AbortSignal;
  /**
   * The requests of the call this one belongs to: the call's end aborts it over HTTP. Or the
   * call itself, asked for its scope only when the request goes over HTTP (a call whose
   * documents are served in process then never makes one).
   */
  scope?: RequestScope | { requestScope(): RequestScope | undefined };
  /** Account the request is made for: its `signingKey` signs it. */
  accountSid?: string;
}

/** The answer, after redirects. `status` 0 means an I/O error (see `error`). */
export interface FetchResult {
  status: number;
  contentType: string;
  body: string | Uint8Array;
  /** URL that finally answered (after redirects): relative URLs resolve against it. */
  url: string;
  error?: string;
  /**
   * Why it failed, when `status` is 0: `BODY_TOO_LARGE` (past the document cap), `DEADLINE`
   * (no complete answer in time), `ABORTED` (its call ended or the engine closed),
   * `EGRESS_DENIED` (an address the egress policy refuses), or undici's error code.
   */
  code?: string;
}

/** How {@link Fetcher.close} ends requests still in flight. */
export interface FetcherCloseOptions {
  /** Milliseconds in-flight requests may still take before they are aborted. */
  graceMs?: number;
}

/** Fetches documents, media and callbacks: in-process handlers first, else HTTP(S). */
export interface Fetcher {
  /**
   * The answer: the result itself when an in-process handler answered synchronously (callers
   * skip a promise and I/O tracking then), else a promise of it.
   */
  fetch(req: FetchRequest): FetchResult | Promise<FetchResult>;
  /** Waits up to the grace for requests in flight, aborts the rest and closes connections. */
  close(options?: FetcherCloseOptions): Promise<void>;
}

export interface HttpFetcherOptions {
  /** Milliseconds to wait for headers and between body chunks (idle timeouts). Default 10,000. */
  timeoutMs?: number;
  /** Total milliseconds a request may take, redirects and body included. Default 15,000. */
  deadlineMs?: number;
  /** Bytes of a document (RCML) read at most; a longer one fails. Default 1 MiB. */
  maxDocumentBytes?: number;
  /** Bytes of media read to learn its length (the WAV header); the rest is not read. Default 64 KiB. */
  mediaProbeBytes?: number;
  /** Redirects followed (301, 302, 303, 307, 308). Default 5. */
  maxRedirects?: number;
  /** Milliseconds `close()` lets requests in flight finish before aborting them. Default 3,000. */
  closeGraceMs?: number;
  /** Addresses requests may connect to. Default: any. */
  egress?: EgressPolicy;
  /** Sees every outgoing HTTP request before it is sent (and may add headers). */
  onRequest?: OutgoingHook;
  /**
   * Awaited, when it returns a promise, before each HTTP request is sent: a node of a cluster
   * that is not sure it still owns its calls holds its webhooks there (and drops them, never
   * settling, once it knows it does not).
   */
  gate?: () => Promise<void> | undefined;
  /**
   * The signing key of an account (undefined: its requests go unsigned). Each HTTP request of
   * an account is signed with it, every hop (`X-Twilio-Signature`, see `signature.ts`).
   */
  signingKey?: (accountSid: string) => string | undefined | Promise<string | undefined>;
  /**
   * Hand HTTP answers back in request order, one per macrotask, so that runs on a virtual
   * clock stay deterministic whatever order the network answers in. Default false.
   */
  ordered?: boolean;
  /** Connections per origin (undici pool). Default unlimited. */
  connections?: number;
  /** Idle keep-alive sockets are closed after this many ms. Default undici's (4 s). */
  keepAliveTimeoutMs?: number;
  /** Requests pipelined per connection. Default 1. */
  pipelining?: number;
}

/** Defaults of {@link HttpFetcherOptions}. */
export const FETCH_DEFAULTS = {
  timeoutMs: 10_000,
  deadlineMs: 15_000,
  maxDocumentBytes: 1024 * 1024,
  mediaProbeBytes: 64 * 1024,
  maxRedirects: 5,
  closeGraceMs: 3_000,
} as const;

/** Bytes of a callback's answer read before the connection is let go. */
const CALLBACK_BYTES = 16 * 1024;

/** Why a request was aborted, as its error says. */
class FetchAborted extends Error {
  constructor(
    readonly code: 'DEADLINE' | 'ABORTED',
    message: string,
  ) {
    super(message);
    this.name = 'FetchAborted';
  }
}

/** The reason to abort a request signal with, so that its error reads `message`. */
export function abortReason(message: string): Error {
  return new FetchAborted('ABORTED', message);
}

/** A request in flight over HTTP: stopped by its deadline, its call's end or the engine's close. */
class Flight extends ExchangeControl {
  constructor(readonly deadline: number) {
    super();
  }
}

/** Creates the engine's fetcher over a handler registry and an undici agent. */
export function createFetcher(handlers: HandlerRegistry, options: HttpFetcherOptions = {}): Fetcher {
  const o = { ...FETCH_DEFAULTS, ...options };
  const egress: EgressGuard | undefined = o.egress?.denyPrivateNetworks
    ? new EgressGuard(o.egress)
    : undefined;
  let agent: Agent | undefined;
  /** Why requests fail once `close()` has begun aborting them. */
  let closed: FetchAborted | undefined;
  /**
   * The requests in flight, oldest first (every one has the same deadline span), so that one
   * timer serves all their deadlines and `close()` aborts them directly: no controller, timer
   * or listener on an engine-long signal per request.
   */
  const open = new Set<Flight>();
  let deadlineTimer: NodeJS.Timeout | undefined;
  /** Requests not yet answered (signing-key lookups included), and who waits for none to be. */
  let pending = 0;
  let idleWaiters: Array<() => void> = [];
  const ordered = o.ordered ? new InOrder() : undefined;

  const caps: Readonly<Record<BodyUse, BodyCap>> = {
    document: { bytes: o.maxDocumentBytes, past: 'fail' },
    media: { bytes: o.mediaProbeBytes, past: 'truncate' },
    callback: { bytes: CALLBACK_BYTES, past: 'truncate' },
  };

  /** Aborts the requests past their deadline and arms the timer for the oldest one left. */
  function sweepDeadlines(): void {
    deadlineTimer = undefined;
    const now = performance.now();
    for (const flight of open) {
      if (flight.deadline > now) {
        armDeadline(flight.deadline - now);
        return;
      }
      flight.abort(new FetchAborted('DEADLINE', `no complete answer within ${o.deadlineMs} ms`));
    }
  }

  function armDeadline(ms: number): void {
    // Unreferenced: the requests' own sockets keep the process alive while they are in flight.
    deadlineTimer = setTimeout(sweepDeadlines, Math.max(1, Math.ceil(ms)));
    deadlineTimer.unref();
  }

  function viaHandler(handler: RcmlHandler, req: FetchRequest): FetchResult | Promise<FetchResult> {
    const url = req.url;
    try {
      const res = handler({ url, method: req.method, params: req.params });
      if (!isThenable(res)) return answered(res, url);
      return Promise.resolve(res)
        .then((value) => answered(value, url))
        .catch((err: unknown) => failed(err, url));
    } catch (err) {
      return failed(err, url);
    }
  }

  async function viaHttp(req: FetchRequest): Promise<FetchResult> {
    // Taken before any wait, as the caller would have: a call ended meanwhile aborts it at once.
    const scope = req.scope instanceof RequestScope ? req.scope : req.scope?.requestScope();
    const held = o.gate?.();
    if (held) await held;
    if (closed) return failed(closed, req.url);
    agent ??= guardedAgent(egress, {
      timeoutMs: o.timeoutMs,
      connections: o.connections ?? null,
      keepAliveTimeoutMs: o.keepAliveTimeoutMs,
      pipelining: o.pipelining,
    });
    const flight = new Flight(performance.now() + o.deadlineMs);
    if (open.size === 0 && deadlineTimer === undefined) armDeadline(o.deadlineMs);
    open.add(flight);
    pending++;
    scope?.add(flight);
    // An AbortSignal's listener goes when the request does: AbortSignal.any would tie every
    // request to long-lived signals that Node 20 never frees.
    const signal = req.signal;
    const forward = signal ? () => flight.abort(signal.reason) : undefined;
    if (signal?.aborted) forward!();
    else if (forward) signal!.addEventListener('abort', forward, { once: true });
    try {
      const key =
        req.accountSid === undefined || !o.signingKey ? undefined : await o.signingKey(req.accountSid);
      const res = await httpExchange({
        url: req.url,
        method: req.method,
        params: req.params,
        kind: req.kind,
        cap: caps[req.use ?? 'document'],
        control: flight,
        dispatcher: agent,
        maxRedirects: o.maxRedirects,
        hook: key === undefined ? o.onRequest : signedWith(key, o.onRequest),
      });
      const body = req.binary ? res.body : res.body.toString('utf8');
      return { status: res.status, contentType: res.contentType, body, url: res.url };
    } catch (err) {
      return failed(flight.reason ?? err, req.url);
    } finally {
      open.delete(flight);
      scope?.delete(flight);
      if (forward) signal!.removeEventListener('abort', forward);
      if (open.size === 0 && deadlineTimer !== undefined) {
        clearTimeout(deadlineTimer);
        deadlineTimer = undefined;
      }
      if (--pending === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const wake of waiters) wake();
      }
    }
  }

  const idle = (): Promise<void> =>
    pending === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));

  return {
    fetch(req) {
      const handler = handlers.find(req.url);
      if (handler) return viaHandler(handler, req);
      if (!/^https?:\/\//i.test(req.url)) {
        return { status: 0, contentType: '', body: '', url: req.url, error: `no handler for ${req.url}` };
      }
      const work = viaHttp(req);
      return ordered ? ordered.add(work) : work;
    },
    async close(closeOptions = {}) {
      const grace = closeOptions.graceMs ?? o.closeGraceMs;
      if (pending > 0 && grace > 0) {
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, grace);
        });
        await Promise.race([idle(), expired]);
        clearTimeout(timer);
      }
      closed ??= new FetchAborted('ABORTED', 'aborted: the engine closed');
      for (const flight of open) flight.abort(closed);
      await idle();
      const done = agent;
      agent = undefined;
      await done?.destroy();
    },
  };
}

/**
 * Hands answers back in request order, each after the previous one's continuations ran (see
 * `ordered`): each in its own `setImmediate` callback, queued once it and every answer before it
 * are there. Node runs the microtasks between two immediate callbacks, so one answer's
 * continuations have all run before the next is handed over, and the answers that came in one
 * event-loop turn are handed over in the check phase that follows rather than one turn each.
 */
class InOrder {
  private readonly queue: Array<{ result: FetchResult | undefined; resolve: (res: FetchResult) => void }> =
    [];
  /** Answers at the head of the queue whose delivery is queued (setImmediate) or under way. */
  private scheduled = 0;

  add(work: Promise<FetchResult>): Promise<FetchResult> {
    return new Promise((resolve) => {
      const slot = { result: undefined as FetchResult | undefined, resolve };
      this.queue.push(slot);
      void work.then((res) => {
        slot.result = res;
        this.schedule();
      });
    });
  }

  /** Queues the delivery of every answer that is there and has all earlier ones delivered or queued. */
  private schedule(): void {
    const queue = this.queue;
    while (this.scheduled < queue.length && queue[this.scheduled].result !== undefined) {
      this.scheduled++;
      setImmediate(this.deliverHead);
    }
  }

  private readonly deliverHead = (): void => {
    const slot = this.queue.shift()!;
    this.scheduled--;
    slot.resolve(slot.result!);
  };
}

function answered(res: HandlerResponse, url: string): FetchResult {
  return { status: res.status, contentType: res.contentType, body: res.body, url };
}

function failed(err: unknown, url: string): FetchResult {
  const code = (err as { code?: unknown } | null)?.code;
  const res: FetchResult = { status: 0, contentType: '', body: '', url, error: errorText(err) };
  if (typeof code === 'string') res.code = code;
  return res;
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function errorText(err: unknown): string {
  if (err instanceof FetchAborted || err instanceof BodyTooLargeError || err instanceof EgressDeniedError) {
    return err.message;
  }
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
