import type { SipHeaders as EngineSipHeaders } from '../engine/params.js';
import type { DialFailure } from '../engine/ports/telephony.js';
import { parseSipUri } from './sip/address.js';
import { isPrivateAddress } from './sip/address-scope.js';
import type { SipHeaders } from './sip/message.js';

/** Where an outgoing INVITE goes. */
export interface SipTarget {
  /** Request-URI: the target as written, URI parameters kept. */
  uri: string;
  host: string;
  port: number;
  transport: 'udp' | 'tcp';
}

/** Caps on the custom headers an outgoing INVITE carries from the `To` URI. */
export const CUSTOM_HEADER_LIMITS = { count: 20, bytes: 4096 } as const;

const TOKEN = /^X-[A-Za-z0-9!%'*+._`~-]+$/i;
const CONTROL = /[\r\n\0]/;
const URI_UNSAFE = /[\s<>"\0]/;

/**
 * A `sip:user@host[:port][;params]` target (its `?headers` part, already read into the
 * request's headers, left out), or why it cannot be called. A registered Contact may have no
 * user part (`userless`).
 */
export function sipTargetOf(
  target: string,
  options: { userless?: boolean } = {},
): SipTarget | { error: string } {
  const q = target.indexOf('?');
  const to = q < 0 ? target : target.slice(0, q);
  if (URI_UNSAFE.test(to)) return { error: `'${to.slice(0, 80)}' holds spaces, quotes or angle brackets` };
  const uri = parseSipUri(to);
  if (uri?.scheme !== 'sip' || (!uri.user && !options.userless)) {
    return { error: `'${to.slice(0, 80)}' is not a sip:user@host URI (sips: and tel: are not supported)` };
  }
  const transport = (uri.params.transport ?? 'udp').toLowerCase();
  if (transport !== 'udp' && transport !== 'tcp') return { error: `transport=${transport} is not supported` };
  return { uri: to, host: uri.host, port: uri.port ?? 5060, transport };
}

/**
 * The INVITE headers of the `To` URI's `?X-Name=value` part: only `X-` names, no CR, LF or NUL
 * in a value, at most 20 headers and 4096 bytes; otherwise why they are refused.
 */
export function inviteHeadersOf(headers: EngineSipHeaders | undefined): SipHeaders | { error: string } {
  const out: SipHeaders = [];
  let bytes = 0;
  for (const name of Object.keys(headers ?? {})) {
    if (!TOKEN.test(name)) return { error: `header '${name.slice(0, 40)}': only X- headers may be sent` };
    const raw = (headers as EngineSipHeaders)[name];
    for (const value of typeof raw === 'string' ? [raw] : raw) {
      if (CONTROL.test(value)) return { error: `header ${name}: a value holds CR, LF or NUL` };
      bytes += name.length + value.length + 4;
      out.push([name.toLowerCase(), value]);
    }
  }
  if (out.length > CUSTOM_HEADER_LIMITS.count || bytes > CUSTOM_HEADER_LIMITS.bytes) {
    return {
      error: `custom headers over the cap of ${CUSTOM_HEADER_LIMITS.count} headers, ${CUSTOM_HEADER_LIMITS.bytes} bytes`,
    };
  }
  return out;
}

/** The From user part of a caller id (`+15551234`, `client:alice`, `sip:bob@host`): URI-safe. */
export function fromUserOf(from: string): string {
  const user = from.startsWith('sip:') ? (parseSipUri(from)?.user ?? '') : from.replace(/^client:/, '');
  const safe = user.replace(/[^A-Za-z0-9+*#._~-]/g, (c) => encodeURIComponent(c));
  return safe === '' ? 'anonymous' : safe;
}

/** The engine's status of an outgoing call refused with `status`. */
export function dialFailureOf(status: number): DialFailure {
  if (status === 486 || status === 600) return 'busy';
  if (status === 408 || status === 480) return 'no-answer';
  if (status === 487) return 'canceled';
  return 'failed';
}

/**
 * Where a call to a registered client goes: its Contact, or, when the Contact names a private
 * address other than the one its REGISTER came from (a softphone behind NAT), that source (the
 * flow the NAT keeps open, as Kamailio's `fix_nated_register` and RFC 5626 do). The Request-URI
 * stays the Contact.
 */
export function bindingTargetOf(binding: { contact: string; source: string }): SipTarget | { error: string } {
  const target = sipTargetOf(binding.contact, { userless: true });
  if ('error' in target) return target;
  const at = binding.source.lastIndexOf(':');
  const address = binding.source.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(binding.source.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || !isPrivateAddress(target.host) || target.host === address)
    return target;
  return { ...target, host: address, port };
}
