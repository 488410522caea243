import { type Dispatcher, request } from 'undici';
import type { HttpMethod } from '../../rcml/model.js';
import type { RequestKind } from '../types.js';
import { type BodyCap, readCapped } from './body.js';
import { buildOutgoing, type OutgoingHook } from './outgoing.js';

/** Redirect statuses followed. 301/302/303/307 keep the method and parameters, as on the platform. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One request over HTTP, with everything the hops share. */
export interface HttpExchange {
  url: string;
  method: HttpMethod;
  params: Readonly<Record<string, string>>;
  kind: RequestKind | undefined;
  cap: BodyCap;
  signal: AbortSignal;
  dispatcher: Dispatcher;
  maxRedirects: number;
  hook: OutgoingHook | undefined;
}

/** What answered: status, content type, body (at most the cap) and the URL that answered. */
export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Uint8Array;
  /** The URL that answered, with its credentials when they were sent to it. */
  url: string;
}

/**
 * Requests `ex.url`, following redirects: a POST stays a POST with its parameters (Downloader
 * of the platform), credentials are sent to the first origin only. Throws on I/O errors, on a
 * refused address, on a body past a `fail` cap and when `ex.signal` aborts.
 */
export async function httpExchange(ex: HttpExchange): Promise<HttpAnswer> {
  let url = new URL(ex.url);
  const origin = url.origin;
  for (let hop = 0; ; hop++) {
    const out = buildOutgoing(
      { url, method: ex.method, params: ex.params, kind: ex.kind, sendCredentials: url.origin === origin },
      ex.hook,
    );
    const res = await request(out.url, {
      method: out.method,
      dispatcher: ex.dispatcher,
      headers: out.headers,
      body: out.body,
      signal: ex.signal,
    });
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && hop < ex.maxRedirects) {
      await res.body.dump();
      url = new URL(location, url);
      continue;
    }
    const ct = res.headers['content-type'];
    const contentType = (Array.isArray(ct) ? ct[0] : ct) ?? '';
    const body = await readCapped(res.body, ex.cap);
    return { status: res.statusCode, contentType, body, url: url.toString() };
  }
}
