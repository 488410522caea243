import { parseSipUri } from './sip/address.js';

/** A SIP trunk (gateway) that calls to numbers go to, with the account it authenticates as. */
export interface SipTrunk {
  /** `sip:gateway.example.com:5060` (a `;transport=tcp` parameter is kept). */
  uri: string;
  /** Digest credentials, when the trunk challenges our INVITEs. */
  username?: string;
  password?: string;
}

/** A number the trunk can be asked for: digits with an optional leading `+`. */
const NUMBER = /^\+?[0-9]{1,32}$/;

/** True for a target that goes to the trunk (a number), rather than a `sip:` or `client:` one. */
export function isTrunkNumber(to: string): boolean {
  return NUMBER.test(to);
}

/**
 * Why a trunk URI is unusable, or undefined: it must be `sip:host[:port][;params]` without a
 * user part, over UDP or TCP.
 */
export function trunkUriProblem(uri: string): string | undefined {
  const parsed = /^sip:/i.test(uri) ? parseSipUri(uri) : undefined;
  if (!parsed || /[\s<>"?]/.test(uri)) return `'${uri.slice(0, 80)}' is not a sip:host[:port] URI`;
  if (parsed.user !== undefined)
    return `'${uri.slice(0, 80)}' has a user part: the number called takes its place`;
  const transport = (parsed.params.transport ?? 'udp').toLowerCase();
  if (transport !== 'udp' && transport !== 'tcp') return `transport=${transport} is not supported`;
  return undefined;
}

/** The Request-URI of a call to `number` through the trunk: the number as user part. */
export function trunkTargetOf(number: string, trunk: SipTrunk): string {
  return trunk.uri.replace(/^sip:/i, `sip:${number}@`);
}
