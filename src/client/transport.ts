import { errorOf } from './errors.js';
import { formBody } from './wire.js';

/** How a client reaches the API. */
export interface ClientOptions {
  /** The account's sid (`AC...`), the user name of Basic authentication. */
  accountSid: string;
  /** The account's auth token, the password of Basic authentication. */
  authToken: string;
  /**
   * `{base_url}` of the server: `http://127.0.0.1:8080`, or with the path it is mounted at
   * (`https://example.com/rcml`). `/sim` is under it.
   */
  baseUrl: string;
  /** `{api_root}`; default `{baseUrl}/platform/2012-04-24`. */
  apiRoot?: string;
  /**
   * The `fetch` to send requests with; default the global one (Node's is undici's). Pass
   * undici's `fetch` bound to an `Agent` to tune connections, or a wrapper to add retries.
   */
  fetch?: typeof globalThis.fetch;
  /** Headers added to every request (a proxy's, a tracing id...). */
  headers?: Record<string, string>;
}

/** A request: a path under a root, query pairs, and a form or JSON body. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** An absolute URL, or a path resolved against the base URL's origin (paging links). */
  url: string;
  query?: Array<[string, string]>;
  form?: Array<[string, string]>;
  json?: unknown;
}

/** Sends requests with the account's credentials and turns failed answers into errors. */
export interface Transport {
  readonly accountSid: string;
  /** `{api_root}`, no trailing slash. */
  readonly apiRoot: string;
  /** `{base_url}`, no trailing slash. */
  readonly baseUrl: string;
  /** The answer's JSON (`undefined` for 204); throws `RcmlApiError` on a failed answer. */
  json<T>(spec: RequestSpec): Promise<T>;
  /** The answer's bytes; throws `RcmlApiError` on a failed answer. */
  bytes(spec: RequestSpec): Promise<Uint8Array>;
}

/** `base64(user:password)` of UTF-8 text, without Node's Buffer (the client runs in browsers). */
function basicCredentials(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function absoluteHttpUrl(name: string, value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw new TypeError(`${name}: expected an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${name}: expected an http or https URL, got ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`${name}: expected a URL without query or fragment, got ${value}`);
  }
  return url.href.replace(/\/+$/, '');
}

function nonEmpty(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name}: expected a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A {@link Transport} for the options; a bad option throws a `TypeError` naming it. */
export function createTransport(options: ClientOptions): Transport {
  const accountSid = nonEmpty('accountSid', options?.accountSid);
  const authToken = nonEmpty('authToken', options.authToken);
  const baseUrl = absoluteHttpUrl('baseUrl', options.baseUrl);
  const apiRoot =
    options.apiRoot === undefined
      ? `${baseUrl}/platform/2012-04-24`
      : absoluteHttpUrl('apiRoot', options.apiRoot);
  const send = options.fetch ?? globalThis.fetch;
  if (typeof send !== 'function') throw new TypeError('fetch: no fetch function given or global');
  const headers = {
    ...options.headers,
    Authorization: `Basic ${basicCredentials(accountSid, authToken)}`,
  };

  const request = async (spec: RequestSpec, accept: string): Promise<{ res: Response; url: string }> => {
    const url = new URL(spec.url, baseUrl);
    for (const [k, v] of spec.query ?? []) url.searchParams.append(k, v);
    const init: RequestInit = { method: spec.method, headers: { ...headers, Accept: accept } };
    if (spec.form !== undefined) init.body = formBody(spec.form);
    else if (spec.json !== undefined) {
      init.body = JSON.stringify(spec.json);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const res = await send(url.href, init);
    if (!res.ok) throw await errorOf(res, { method: spec.method, url: url.href });
    return { res, url: url.href };
  };

  return {
    accountSid,
    apiRoot,
    baseUrl,
    async json<T>(spec: RequestSpec): Promise<T> {
      const { res } = await request(spec, 'application/json');
      if (res.status === 204) return undefined as T;
      return (await res.json()) as T;
    },
    async bytes(spec: RequestSpec): Promise<Uint8Array> {
      const { res } = await request(spec, '*/*');
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}
