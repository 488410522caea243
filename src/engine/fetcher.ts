import { Agent, request } from 'undici';
import type { HttpMethod } from '../rcml/model.js';
import type { HandlerRegistry } from './handlers.js';
import type { HandlerResponse, RcmlHandler } from './types.js';

/** A request the engine makes: for RCML, media or a callback. */
export interface FetchRequest {
  url: string;
  method: HttpMethod;
  params: Record<string, string>;
  /** Read the body as bytes (media) instead of text. */
  binary?: boolean;
}

/** The answer, after redirects. `status` 0 means an I/O error (see `error`). */
export interface FetchResult {
  status: number;
  contentType: string;
  body: string | Uint8Array;
  /** URL that finally answered (after redirects): relative URLs resolve against it. */
  url: string;
  error?: string;
}

/** Fetches documents, media and callbacks: in-process handlers first, else HTTP(S). */
export interface Fetcher {
  /**
   * The answer: the result itself when an in-process handler answered synchronously (callers
   * skip a promise and I/O tracking then), else a promise of it.
   */
  fetch(req: FetchRequest): FetchResult | Promise<FetchResult>;
  close(): Promise<void>;
}

export interface HttpFetcherOptions {
  /** Milliseconds to wait for headers and for body data. Default 10,000. */
  timeoutMs?: number;
  /** Redirects followed (301, 302, 303, 307, 308). Default 5. */
  maxRedirects?: number;
  /**
   * Hand HTTP answers back in request order, one per macrotask, so that runs on a virtual
   * clock stay deterministic whatever order the network answers in. Default false.
   */
  ordered?: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function withQuery(url: string, params: Record<string, string>): string {
  const qs = new URLSearchParams(params).toString();
  if (!qs) return url;
  return url + (url.includes('?') ? '&' : '?') + qs;
}

/** Creates the engine's fetcher over a handler registry and an undici agent. */
export function createFetcher(handlers: HandlerRegistry, options: HttpFetcherOptions = {}): Fetcher {
  const timeout = options.timeoutMs ?? 10_000;
  const maxRedirects = options.maxRedirects ?? 5;
  let agent: Agent | undefined;
  let previous: Promise<unknown> = Promise.resolve();

  /** Resolves HTTP results in request order, each after the previous one's continuations ran. */
  function inOrder(work: Promise<FetchResult>): Promise<FetchResult> {
    const result = Promise.all([work, previous]).then(([res]) => res);
    previous = result.then(() => new Promise((resolve) => setImmediate(resolve)));
    return result;
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
    agent ??= new Agent({ headersTimeout: timeout, bodyTimeout: timeout, connectTimeout: timeout });
    let url = req.url;
    let method = req.method;
    for (let hop = 0; ; hop++) {
      const isGet = method === 'GET';
      try {
        const res = await request(isGet ? withQuery(url, req.params) : url, {
          method,
          dispatcher: agent,
          headers: isGet ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
          body: isGet ? undefined : new URLSearchParams(req.params).toString(),
        });
        const location = res.headers.location;
        if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && hop < maxRedirects) {
          await res.body.dump();
          url = new URL(location, url).toString();
          // 303, and 301/302 after a POST, continue with GET as browsers and the family do.
          if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && !isGet)) {
            method = 'GET';
          }
          continue;
        }
        const ct = res.headers['content-type'];
        const contentType = (Array.isArray(ct) ? ct[0] : ct) ?? '';
        const body = req.binary ? new Uint8Array(await res.body.arrayBuffer()) : await res.body.text();
        return { status: res.statusCode, contentType, body, url };
      } catch (err) {
        return { status: 0, contentType: '', body: '', url, error: errorText(err) };
      }
    }
  }

  return {
    fetch(req) {
      const handler = handlers.find(req.url);
      if (handler) return viaHandler(handler, req);
      if (!/^https?:\/\//i.test(req.url)) {
        return { status: 0, contentType: '', body: '', url: req.url, error: `no handler for ${req.url}` };
      }
      return options.ordered ? inOrder(viaHttp(req)) : viaHttp(req);
    },
    async close() {
      await agent?.close();
      agent = undefined;
    },
  };
}

function answered(res: HandlerResponse, url: string): FetchResult {
  return { status: res.status, contentType: res.contentType, body: res.body, url };
}

function failed(err: unknown, url: string): FetchResult {
  return { status: 0, contentType: '', body: '', url, error: errorText(err) };
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
