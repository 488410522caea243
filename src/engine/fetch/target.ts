import { errors } from 'undici';
import { splitCredentials } from './credentials.js';

/** A URL requested, parsed once: what a request line and its connection need. */
export interface Target {
  /** The URL as given, normalized, credentials included (relative redirects resolve against it). */
  readonly href: string;
  /** The URL without user information: what is requested and signed. */
  readonly url: string;
  /** `scheme://host:port`: the connection pool the request goes through. */
  readonly origin: string;
  /** Path and query of the request line (no fragment). */
  readonly path: string;
  /** `Basic ...` when the URL names a user. */
  readonly authorization: string | undefined;
}

const CACHE_SIZE = 1024;
/** Targets by URL: calls request the same few URLs over and over. */
const cache = new Map<string, Target>();

/**
 * `href` (resolved against `base` when given) parsed into a {@link Target}. Throws a TypeError
 * for an invalid URL, and undici's invalid-argument error for a scheme other than HTTP(S).
 */
export function targetOf(href: string, base?: string): Target {
  const key = base === undefined ? href : `${base} ${href}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const url = new URL(href, base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new errors.InvalidArgumentError(
      'Invalid URL protocol: the URL must start with `http:` or `https:`.',
    );
  }
  const split = splitCredentials(url);
  const target: Target = {
    href: url.toString(),
    url: split.url,
    origin: url.origin,
    path: url.pathname + url.search,
    authorization: split.authorization,
  };
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(key, target);
  return target;
}
