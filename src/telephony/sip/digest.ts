/**
 * HTTP digest authentication as SIP uses it (RFC 2617, RFC 7616; RFC 3261 section 22): the
 * parameters of a `WWW-Authenticate`/`Proxy-Authenticate` challenge or an `Authorization`
 * answer, and the response hash (MD5 or SHA-256, with `qop=auth` or without qop).
 */
import { createHash, randomBytes } from 'node:crypto';

/** A digest challenge or credentials: the scheme and its parameters (names lower-cased). */
export interface DigestParams {
  scheme: string;
  params: Record<string, string>;
}

/** Caps a header read here: nothing longer is parsed (a digest header is well under 1 KiB). */
const MAX_HEADER = 4096;

/**
 * Reads `Digest realm="x", nonce="y", qop="auth,auth-int", algorithm=MD5`; undefined when it is
 * no such header. Quoted values may hold commas and escaped quotes. Never throws.
 */
export function parseDigest(header: string): DigestParams | undefined {
  if (header.length > MAX_HEADER) return undefined;
  const m = /^\s*([A-Za-z][A-Za-z0-9._-]*)\s+/.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  let rest = header.slice(m[0].length);
  const pair = /^\s*([A-Za-z0-9._-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))\s*(?:,|$)/;
  while (rest.trim() !== '') {
    const p = pair.exec(rest);
    if (!p) return undefined;
    const name = p[1].toLowerCase();
    params[name] = p[2] === undefined ? p[3] : p[2].replace(/\\(.)/g, '$1');
    rest = rest.slice(p[0].length);
  }
  return { scheme: m[1], params };
}

/** Writes a digest header from its parameters, every value quoted but the tokens named in `bare`. */
export function formatDigest(digest: DigestParams, bare: readonly string[] = ['algorithm', 'stale']): string {
  const tokens = new Set(bare);
  const parts = Object.entries(digest.params).map(([name, value]) =>
    tokens.has(name) && /^[A-Za-z0-9._-]+$/.test(value)
      ? `${name}=${value}`
      : `${name}="${value.replace(/(["\\])/g, '\\$1')}"`,
  );
  return `${digest.scheme} ${parts.join(', ')}`;
}

const HASHES: Record<string, string> = { md5: 'md5', 'sha-256': 'sha256' };

/** True when this module can answer the challenge's algorithm (MD5 or SHA-256). */
export function supportedAlgorithm(algorithm: string | undefined): boolean {
  return HASHES[(algorithm ?? 'MD5').toLowerCase()] !== undefined;
}

function hash(algorithm: string, text: string): string {
  return createHash(HASHES[algorithm.toLowerCase()] ?? 'md5')
    .update(text, 'utf8')
    .digest('hex');
}

/** The inputs of a digest response. */
export interface DigestInput {
  algorithm?: string;
  username: string;
  realm: string;
  password: string;
  method: string;
  uri: string;
  nonce: string;
  /** `auth`, or undefined for the RFC 2069 form without qop. */
  qop?: string;
  nc?: string;
  cnonce?: string;
}

/** The `response` value: H(H(A1):nonce[:nc:cnonce:qop]:H(A2)). */
export function digestResponse(input: DigestInput): string {
  const algorithm = input.algorithm ?? 'MD5';
  const ha1 = hash(algorithm, `${input.username}:${input.realm}:${input.password}`);
  const ha2 = hash(algorithm, `${input.method}:${input.uri}`);
  const middle = input.qop ? `${input.nonce}:${input.nc}:${input.cnonce}:${input.qop}` : input.nonce;
  return hash(algorithm, `${ha1}:${middle}:${ha2}`);
}

/**
 * The `Authorization` (or `Proxy-Authorization`) value answering `challenge` for a request of
 * `method` to `uri`; undefined when the challenge is no digest one this module can answer.
 */
export function authorizationFor(
  challenge: string,
  credentials: { username: string; password: string },
  method: string,
  uri: string,
  cnonce: string = randomBytes(8).toString('hex'),
): string | undefined {
  const parsed = parseDigest(challenge);
  if (parsed?.scheme.toLowerCase() !== 'digest') return undefined;
  const { realm, nonce, opaque, algorithm } = parsed.params;
  if (realm === undefined || nonce === undefined || !supportedAlgorithm(algorithm)) return undefined;
  const offered = (parsed.params.qop ?? '').split(',').map((q) => q.trim().toLowerCase());
  // qop=auth when offered; auth-int alone is not spoken here, the old form without qop otherwise.
  if (parsed.params.qop !== undefined && !offered.includes('auth')) return undefined;
  const qop = offered.includes('auth') ? 'auth' : undefined;
  const nc = '00000001';
  const response = digestResponse({
    algorithm,
    username: credentials.username,
    realm,
    password: credentials.password,
    method,
    uri,
    nonce,
    qop,
    nc,
    cnonce,
  });
  const params: Record<string, string> = { username: credentials.username, realm, nonce, uri, response };
  if (algorithm !== undefined) params.algorithm = algorithm;
  if (qop) Object.assign(params, { qop, nc, cnonce });
  if (opaque !== undefined) params.opaque = opaque;
  // In an answer qop and nc are tokens, not quoted strings (RFC 7616 section 3.4).
  return formatDigest({ scheme: 'Digest', params }, ['algorithm', 'qop', 'nc']);
}
