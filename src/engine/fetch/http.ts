import type { Dispatcher } from 'undici';
import type { HttpMethod } from '../../rcml/model.js';
import type { RequestKind } from '../types.js';
import { type BodyCap, BodyTooLargeError } from './body.js';
import { buildOutgoing, type OutgoingHook } from './outgoing.js';
import { type Target, targetOf } from './target.js';

/** Redirect statuses followed. 301/302/303/307 keep the method and parameters, as on the platform. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Bytes of a redirect's body read (and dropped) before its connection is let go instead. */
const REDIRECT_BODY_BYTES = 128 * 1024;

/**
 * Stops a request, between hops or during one. Lighter than an AbortController per request:
 * whoever owns the request (deadline, call, engine close) calls `abort`.
 */
export class ExchangeControl {
  /** Why the request was stopped, once it was. */
  reason: Error | undefined = undefined;
  /** Ends the hop in flight (undici's abort), while one is. */
  cancel: ((err: Error) => void) | null = null;

  abort(reason: Error): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    const cancel = this.cancel;
    this.cancel = null;
    cancel?.(reason);
  }
}

/** One request over HTTP, with everything the hops share. */
export interface HttpExchange {
  url: string;
  method: HttpMethod;
  params: Readonly<Record<string, string>>;
  kind: RequestKind | undefined;
  cap: BodyCap;
  control: ExchangeControl;
  dispatcher: Dispatcher;
  maxRedirects: number;
  hook: OutgoingHook | undefined;
}

/** What answered: status, content type, body (at most the cap) and the URL that answered. */
export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  /** The URL that answered, with its credentials when they were sent to it. */
  url: string;
}

/**
 * Requests `ex.url`, following redirects: a POST stays a POST with its parameters (Downloader
 * of the platform), credentials are sent to the first origin only. Throws on I/O errors, on a
 * refused address, on a body past a `fail` cap and when `ex.control` is aborted (its reason).
 */
export async function httpExchange(ex: HttpExchange): Promise<HttpAnswer> {
  let target = targetOf(ex.url);
  const origin = target.origin;
  for (let hop = 0; ; hop++) {
    const out = buildOutgoing(
      {
        target,
        method: ex.method,
        params: ex.params,
        kind: ex.kind,
        sendCredentials: target.origin === origin,
      },
      ex.hook,
    );
    if (ex.control.reason !== undefined) throw ex.control.reason;
    const follow = hop < ex.maxRedirects;
    const res = await new Promise<HopAnswer>((resolve, reject) => {
      const handler = new HopHandler(follow ? REDIRECT_BODY_BYTES : -1, ex.cap, ex.control, resolve, reject);
      ex.dispatcher.dispatch(
        {
          origin: target.origin,
          path: out.method === 'GET' ? requestPath(out.url, target) : target.path,
          method: out.method,
          headers: out.headers,
          body: out.body,
        },
        handler,
      );
    });
    if (res.location !== undefined) {
      target = targetOf(res.location, target.href);
      continue;
    }
    return { status: res.status, contentType: res.contentType, body: res.body, url: target.href };
  }
}

/** The request line's path of a GET: its URL's path and query (parameters added), no fragment. */
function requestPath(url: string, target: Target): string {
  if (url === target.url) return target.path;
  const hash = url.indexOf('#');
  return (hash < 0 ? url : url.slice(0, hash)).slice(target.origin.length);
}

/** One hop's answer; `location` is set when it is a redirect to follow. */
interface HopAnswer {
  status: number;
  contentType: string;
  location: string | undefined;
  body: Buffer;
}

/**
 * Reads one hop's answer straight from undici's dispatch callbacks (no stream per response):
 * the body up to the cap, or a redirect's location. Past a `truncate` cap, or past the bytes a
 * redirect's body may take, it answers with what it has and lets the connection go.
 */
class HopHandler {
  private status = 0;
  private contentType = '';
  private location: string | undefined = undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;
  private abortHop: ((err: Error) => void) | null = null;
  private done = false;

  constructor(
    /** Bytes of a redirect's body read at most; -1 when redirects are no longer followed. */
    private readonly redirectBytes: number,
    private readonly cap: BodyCap,
    private readonly control: ExchangeControl,
    private readonly resolve: (answer: HopAnswer) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    if (this.control.reason !== undefined) {
      abort(this.control.reason);
      return;
    }
    this.abortHop = abort;
    this.control.cancel = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true;
    this.status = statusCode;
    let location: string | undefined;
    let locations = 0;
    let contentType: string | undefined;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i];
      if (name.length !== 12 && name.length !== 8) continue;
      const lower = name.toString('latin1').toLowerCase();
      if (lower === 'content-type') contentType ??= rawHeaders[i + 1].toString('latin1');
      else if (lower === 'location') {
        locations++;
        location = rawHeaders[i + 1].toString('latin1');
      }
    }
    this.contentType = contentType ?? '';
    // A repeated Location is no redirect to follow.
    if (this.redirectBytes >= 0 && locations === 1 && REDIRECTS.has(statusCode)) this.location = location;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.done) return false;
    if (this.location !== undefined) {
      // A followed redirect's body is dropped.
      this.dropped += chunk.length;
      if (this.dropped > this.redirectBytes) this.answerEarly();
      return true;
    }
    const room = this.cap.bytes - this.size;
    if (chunk.length > room) {
      if (this.cap.past === 'fail') {
        this.abortHop?.(new BodyTooLargeError(this.cap.bytes));
        return false;
      }
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.cap.bytes;
      this.answerEarly();
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  onComplete(): void {
    this.answer();
  }

  onError(err: Error): void {
    this.release();
    if (this.done) return;
    this.done = true;
    this.reject(err);
  }

  /** Answers with what was read and ends the hop (its connection closes, the rest unread). */
  private answerEarly(): void {
    this.answer();
    this.abortHop?.(new Error('the rest of the body is not read'));
  }

  private answer(): void {
    this.release();
    if (this.done) return;
    this.done = true;
    const chunks = this.chunks;
    this.resolve({
      status: this.status,
      contentType: this.contentType,
      location: this.location,
      body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.size),
    });
  }

  private release(): void {
    if (this.control.cancel === this.abortHop) this.control.cancel = null;
  }
}
