import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OutgoingHook } from './fetch/outgoing.js';
import { fieldValues } from './params.js';

/**
 * Signatures of the platform's requests to customer URLs, in the Twilio scheme, so the request
 * validators of Twilio's helper libraries accept them unchanged: `X-Twilio-Signature` =
 * base64(HMAC-SHA1(key, URL + each POST parameter's name and value, sorted by name)).
 */
export const SIGNATURE_HEADER = 'X-Twilio-Signature';

/** The URL a request line carries: without user name and password (never sent, never signed). */
function signedUrl(url: string): string {
  if (!url.includes('@')) return url;
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url;
  }
}

/** A request's form fields: one value per name, or every value of a repeated field. */
export type SignedParams = Readonly<Record<string, string | readonly string[]>>;

/**
 * A field's values in signing order. A field sent more than once (a repeated SIP header, or a
 * list from the receiver's form parser) signs each distinct value, sorted, after its name, as
 * the helper libraries compute it from the parsed body.
 */
function signedValues(name: string, value: string | readonly string[]): readonly string[] {
  const values = typeof value === 'string' ? fieldValues(name, value) : value;
  return values.length > 1 ? [...new Set(values)].sort() : values;
}

/**
 * The signature of a request: `url` as requested (a GET's parameters in its query) and the
 * form fields of a POST (`{}` for a GET). Names sort by UTF-16 code units, as the helper
 * libraries do.
 */
export function webhookSignature(key: string, url: string, params: SignedParams): string {
  // One string, hashed in one call: the same bytes as an update per name and value, without a
  // call into the native hash for each (a webhook carries twenty-odd fields).
  let text = signedUrl(url);
  for (const name of Object.keys(params).sort()) {
    for (const value of signedValues(name, params[name])) text += name + value;
  }
  return createHmac('sha1', key).update(text, 'utf8').digest('base64');
}

/** `url` with its scheme's default port written out, or left out when it was written. */
function otherPortForm(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const defaultPort = u.protocol === 'https:' ? '443' : u.protocol === 'http:' ? '80' : undefined;
  if (defaultPort === undefined) return undefined;
  // `URL` drops a default port, so `host` alone tells whether one was written.
  const written = new RegExp(`^[a-z]+://[^/?#]*:${defaultPort}(?=[/?#]|$)`, 'i').test(url);
  if (written) return url.replace(new RegExp(`:${defaultPort}(?=[/?#]|$)`), '');
  return url.replace(/^([a-z]+:\/\/[^/?#]+)/i, `$1:${defaultPort}`);
}

/**
 * Whether `signature` is the platform's signature of a request to `url` with the POST
 * parameters `params` (`{}` for a GET), for the account's signing key. The URL is the full one
 * the application was called at, query included; a proxy that adds or drops the scheme's
 * default port does not matter. Compared in constant time.
 */
export function validateRequest(key: string, signature: string, url: string, params: SignedParams): boolean {
  const given = Buffer.from(signature ?? '', 'utf8');
  let valid = false;
  for (const candidate of [url, otherPortForm(url)]) {
    if (candidate === undefined) continue;
    const expected = Buffer.from(webhookSignature(key, candidate, params), 'utf8');
    if (expected.length === given.length && timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

/**
 * An outgoing-request hook that signs each request with `key` (after `next`, which may add
 * headers but not change what is signed: URL and form).
 */
export function signedWith(key: string, next?: OutgoingHook): OutgoingHook {
  return (out) => {
    next?.(out);
    // A GET's parameters are already in its URL; only a POST's form fields are appended.
    out.headers['x-twilio-signature'] = webhookSignature(
      key,
      out.url,
      out.method === 'GET' ? {} : out.params,
    );
  };
}
