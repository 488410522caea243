import type { HttpMethod } from '../../rcml/model.js';
import { formBody } from '../params.js';
import type { RequestKind } from '../types.js';
import type { Target } from './target.js';

/**
 * One HTTP request the platform sends to a customer URL, as it goes on the wire. Built in one
 * place ({@link buildOutgoing}) for every hop, so that whatever the headers carry (content
 * type, Basic credentials, a signature added by an {@link OutgoingHook}) is the same for RCML,
 * fallback, action, callback and media requests.
 */
export interface OutgoingRequest {
  /** The URL requested, without user information; a GET's parameters are in its query. */
  readonly url: string;
  readonly method: HttpMethod;
  /** The request's parameters (a POST's form fields, a GET's query additions). */
  readonly params: Readonly<Record<string, string>>;
  /** What the request is for; undefined for requests made outside a call. */
  readonly kind: RequestKind | undefined;
  /** Header names in lower case. A hook may add or replace any of them. */
  headers: Record<string, string>;
  /** The form-encoded body of a POST. */
  readonly body: string | undefined;
}

/** Sees (and may add headers to) every outgoing request, e.g. to sign it. */
export type OutgoingHook = (request: OutgoingRequest) => void;

/** What a hop requests: the URL may carry credentials, sent as Basic authentication. */
export interface OutgoingInput {
  target: Target;
  method: HttpMethod;
  params: Readonly<Record<string, string>>;
  kind: RequestKind | undefined;
  /** False after a redirect to another origin: credentials never follow one. */
  sendCredentials: boolean;
}

function withQuery(url: string, params: Readonly<Record<string, string>>): string {
  const qs = formBody(params);
  if (!qs) return url;
  const hash = url.indexOf('#');
  const bare = hash < 0 ? url : url.slice(0, hash);
  return bare + (bare.includes('?') ? '&' : '?') + qs;
}

/** The request of one hop, headers and all, after `hook` has seen it. */
export function buildOutgoing(input: OutgoingInput, hook: OutgoingHook | undefined): OutgoingRequest {
  const target = input.target;
  const isGet = input.method === 'GET';
  const headers: Record<string, string> = {};
  if (!isGet) headers['content-type'] = 'application/x-www-form-urlencoded';
  if (target.authorization && input.sendCredentials) headers.authorization = target.authorization;
  const request: OutgoingRequest = {
    url: isGet ? withQuery(target.url, input.params) : target.url,
    method: input.method,
    params: input.params,
    kind: input.kind,
    headers,
    body: isGet ? undefined : formBody(input.params),
  };
  hook?.(request);
  return request;
}
