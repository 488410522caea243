/**
 * SIP messages (RFC 3261 section 7): parsing from the wire and writing back. Headers keep their
 * order; names are kept in lower case with compact forms expanded, and written in their usual
 * spelling. Size caps apply before anything else is read, so a hostile datagram costs little.
 */

/** Limits on what a SIP message may hold (see docs/telephony.md, "Security"). */
export const SIP_LIMITS = {
  /** Whole message, headers and body. */
  messageBytes: 65_535,
  /** Header lines. */
  headers: 100,
  /** One header value. */
  headerBytes: 4_096,
  /** A body (SDP, dtmf-relay). */
  bodyBytes: 16_384,
} as const;

export type SipHeaders = Array<[name: string, value: string]>;

export interface SipRequest {
  kind: 'request';
  method: string;
  uri: string;
  headers: SipHeaders;
  body: string;
}

export interface SipResponse {
  kind: 'response';
  status: number;
  reason: string;
  headers: SipHeaders;
  body: string;
}

export type SipMessage = SipRequest | SipResponse;

/** A message that cannot be read; `status` is the answer a request deserves (400, 413, 513). */
export class SipParseError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'SipParseError';
  }
}

const COMPACT: Record<string, string> = {
  v: 'via',
  f: 'from',
  t: 'to',
  i: 'call-id',
  m: 'contact',
  l: 'content-length',
  c: 'content-type',
  k: 'supported',
  s: 'subject',
  e: 'content-encoding',
  o: 'event',
  r: 'refer-to',
};

const SPELLING: Record<string, string> = {
  'call-id': 'Call-ID',
  cseq: 'CSeq',
  'www-authenticate': 'WWW-Authenticate',
  'mime-version': 'MIME-Version',
};

/** Headers whose comma-separated values are separate entries (split when parsed). */
const LISTS = new Set(['via', 'route', 'record-route', 'contact', 'allow', 'supported', 'require']);

/** The usual spelling of a lower-case header name: `content-type` -> `Content-Type`. */
export function headerSpelling(name: string): string {
  return (
    SPELLING[name] ?? name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())
  );
}

/** Splits at commas outside quotes and angle brackets. */
function splitList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && c === '<') depth++;
    else if (!quoted && c === '>') depth--;
    else if (!quoted && depth === 0 && c === ',') {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out.filter((v) => v !== '');
}

/**
 * Reads one message. With `stream` (TCP) the body is exactly Content-Length bytes and the
 * message must be complete; over UDP a missing Content-Length means the rest of the datagram.
 */
export function parseSipMessage(data: Buffer | string): SipMessage {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  if (text.length > SIP_LIMITS.messageBytes) throw new SipParseError('message too large', 513);
  let end = text.indexOf('\r\n\r\n');
  let sep = 4;
  if (end < 0) {
    end = text.indexOf('\n\n');
    sep = 2;
  }
  if (end < 0) throw new SipParseError('no end of headers');
  const lines = text.slice(0, end).split(/\r?\n/);
  const start = lines.shift() ?? '';
  const headers: SipHeaders = [];
  let current: [string, string] | undefined;
  const flush = () => {
    if (!current) return;
    const [name, value] = current;
    if (value.length > SIP_LIMITS.headerBytes) throw new SipParseError(`header ${name} too long`, 413);
    if (LISTS.has(name)) for (const v of splitList(value)) headers.push([name, v]);
    else headers.push([name, value.trim()]);
    if (headers.length > SIP_LIMITS.headers) throw new SipParseError('too many headers', 413);
    current = undefined;
  };
  for (const line of lines) {
    if (line === '') continue;
    if (line[0] === ' ' || line[0] === '\t') {
      if (!current) throw new SipParseError('continuation line without a header');
      current[1] += ` ${line.trim()}`;
      continue;
    }
    flush();
    const colon = line.indexOf(':');
    if (colon <= 0) throw new SipParseError(`malformed header line '${line.slice(0, 40)}'`);
    const raw = line.slice(0, colon).trim().toLowerCase();
    current = [COMPACT[raw] ?? raw, line.slice(colon + 1).trim()];
  }
  flush();
  let body = text.slice(end + sep);
  const length = headerOf(headers, 'content-length');
  if (length !== undefined) {
    const n = Number(length);
    if (!/^\d+$/.test(length.trim())) throw new SipParseError('bad Content-Length');
    if (n > body.length) throw new SipParseError('body shorter than Content-Length');
    body = body.slice(0, n);
  }
  if (body.length > SIP_LIMITS.bodyBytes) throw new SipParseError('body too large', 413);
  const status = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(start);
  if (status) return { kind: 'response', status: Number(status[1]), reason: status[2], headers, body };
  const request = /^([A-Za-z]+) (\S+) SIP\/2\.0$/.exec(start);
  if (!request) throw new SipParseError(`malformed start line '${start.slice(0, 60)}'`);
  const message: SipRequest = {
    kind: 'request',
    method: request[1].toUpperCase(),
    uri: request[2],
    headers,
    body,
  };
  for (const name of ['via', 'from', 'to', 'call-id', 'cseq']) {
    if (headerOf(headers, name) === undefined)
      throw new SipParseError(`missing ${headerSpelling(name)} header`);
  }
  return message;
}

/** First value of a header (lower-case name). */
export function headerOf(headers: SipHeaders, name: string): string | undefined {
  for (const [n, v] of headers) if (n === name) return v;
  return undefined;
}

/** Every value of a header, in order. */
export function headersOf(headers: SipHeaders, name: string): string[] {
  const out: string[] = [];
  for (const [n, v] of headers) if (n === name) out.push(v);
  return out;
}

/** Writes a message with a correct Content-Length. */
export function serializeSipMessage(message: SipMessage): Buffer {
  const start =
    message.kind === 'request'
      ? `${message.method} ${message.uri} SIP/2.0`
      : `SIP/2.0 ${message.status} ${message.reason}`;
  const lines = [start];
  for (const [name, value] of message.headers) {
    if (name === 'content-length') continue;
    lines.push(`${headerSpelling(name)}: ${value}`);
  }
  const body = Buffer.from(message.body, 'latin1');
  lines.push(`Content-Length: ${body.length}`, '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]);
}

/** CSeq header: number and method. */
export function cseqOf(message: SipMessage): { seq: number; method: string } {
  const value = headerOf(message.headers, 'cseq') ?? '';
  const m = /^(\d+)\s+([A-Za-z]+)$/.exec(value.trim());
  if (!m) throw new SipParseError(`bad CSeq '${value}'`);
  return { seq: Number(m[1]), method: m[2].toUpperCase() };
}

/** Standard reason phrases of the responses this endpoint sends. */
export const REASONS: Record<number, string> = {
  100: 'Trying',
  180: 'Ringing',
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  420: 'Bad Extension',
  480: 'Temporarily Unavailable',
  481: 'Call/Transaction Does Not Exist',
  486: 'Busy Here',
  487: 'Request Terminated',
  488: 'Not Acceptable Here',
  491: 'Request Pending',
  500: 'Server Internal Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  513: 'Message Too Large',
  603: 'Decline',
};

/**
 * The answer to bytes that were meant as a request but could not be read (RFC 3261 section
 * 8.2: 400, 413, 513): the headers a response needs, recovered line by line from the raw text
 * (Via, From, To, Call-ID, CSeq, compact forms too). Undefined when the bytes are no request,
 * an ACK (never answered), or carry no Via to answer along.
 */
export function errorResponseOf(raw: string, error: SipParseError): SipResponse | undefined {
  if (!/^[A-Z]+ \S+ SIP\/2\.0\r?\n/.test(raw) || raw.startsWith('ACK')) return undefined;
  const headers: SipHeaders = [];
  const lines = raw.split(/\r?\n/);
  for (const name of ['via', 'from', 'to', 'call-id', 'cseq']) {
    for (const line of lines) {
      if (line === '') break;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const raw = line.slice(0, colon).trim().toLowerCase();
      if ((COMPACT[raw] ?? raw) !== name) continue;
      headers.push([name, line.slice(colon + 1).trim()]);
      if (name !== 'via') break;
    }
  }
  if (!headers.some(([n]) => n === 'via')) return undefined;
  return { kind: 'response', status: error.status, reason: error.message.slice(0, 60), headers, body: '' };
}
