/** Our side of a message: random tags and branches, our address, and responses to requests. */
import { randomBytes } from 'node:crypto';
import { formatNameAddr, parseNameAddr } from './address.js';
import {
  headerOf,
  headersOf,
  REASONS,
  type SipHeaders,
  type SipRequest,
  type SipResponse,
} from './message.js';

/** A random token for tags and branches. */
export function token(bytes = 8): string {
  return randomBytes(bytes).toString('hex');
}

/** Our own address as it appears in Via, Contact and SDP. */
export interface LocalAddress {
  /** Host written in Via, Contact and SDP (the public address). */
  host: string;
  port: number;
}

/**
 * A response to `request` (RFC 3261 section 8.2.6): Via, From, To, Call-ID and CSeq copied,
 * our tag on the To of anything but 100, Record-Route and Contact on dialog-making answers.
 */
export function responseTo(
  request: SipRequest,
  status: number,
  options: { toTag?: string; contact?: string; body?: string; headers?: SipHeaders; reason?: string } = {},
): SipResponse {
  const headers: SipHeaders = [];
  for (const v of headersOf(request.headers, 'via')) headers.push(['via', v]);
  headers.push(['from', headerOf(request.headers, 'from') ?? '']);
  let to = headerOf(request.headers, 'to') ?? '';
  if (status > 100 && options.toTag) {
    const addr = parseNameAddr(to);
    if (addr && addr.params.tag === undefined)
      to = formatNameAddr({ ...addr, params: { ...addr.params, tag: options.toTag } });
  }
  headers.push(['to', to]);
  headers.push(['call-id', headerOf(request.headers, 'call-id') ?? '']);
  headers.push(['cseq', headerOf(request.headers, 'cseq') ?? '']);
  if (request.method === 'INVITE' && status > 100 && status < 300) {
    for (const v of headersOf(request.headers, 'record-route')) headers.push(['record-route', v]);
  }
  if (options.contact && status > 100 && status < 300) headers.push(['contact', options.contact]);
  if (options.headers) headers.push(...options.headers);
  if (options.body) headers.push(['content-type', 'application/sdp']);
  return {
    kind: 'response',
    status,
    reason: options.reason ?? REASONS[status] ?? 'Unknown',
    headers,
    body: options.body ?? '',
  };
}

export function hostPort(local: LocalAddress): string {
  return local.host.includes(':') ? `[${local.host}]:${local.port}` : `${local.host}:${local.port}`;
}
