import type { InboundVoice } from '../../engine/ports/inbound-voice.js';
import { headerOf, type SipHeaders } from './message.js';
import type { Registrar, SipClientDirectory } from './registrar.js';
import type { UasInvite } from './uas-invite.js';

/** How an INVITE is taken with regard to clients (`authorizeClientInvite`). */
export type ClientInvite =
  /** Not a client's call with a voice URL: routed by the number called, as any caller's. */
  | { kind: 'number' }
  /** Refused: a 407 digest challenge, 403 (wrong password, ambiguous login), 400, or 503. */
  | { kind: 'refuse'; status: number; reason?: string; headers?: SipHeaders }
  /** An authenticated client: its call runs its voice URL for its account. */
  | { kind: 'client'; login: string; accountSid: string; voice: InboundVoice };

/**
 * Whether an INVITE is a call a client places: its From user is the login of an active client
 * with a voice URL. Such an INVITE is authenticated as a REGISTER is (the registrar's nonces and
 * digest check; `407` with `Proxy-Authenticate`, the answer read from `Proxy-Authorization` or
 * `Authorization`). Any other From (a plain SIP caller, a client without a voice URL) is left to
 * number routing, unchallenged: such callers reach routed numbers as before.
 */
export function authorizeClientInvite(
  server: UasInvite,
  directory: SipClientDirectory,
  registrar: Registrar,
): ClientInvite {
  const login = server.callerUser;
  if (!login || !directory.clientsOf(login).some((c) => c.voice?.url)) return { kind: 'number' };
  const headers = server.invite.headers;
  const authorization = headerOf(headers, 'proxy-authorization') ?? headerOf(headers, 'authorization');
  const checked = registrar.verify(server.invite, login, authorization);
  if ('stale' in checked) {
    const challenge = registrar.challengeHeader(checked.stale);
    return challenge === undefined
      ? { kind: 'refuse', status: 503, headers: [['retry-after', '5']] }
      : {
          kind: 'refuse',
          status: 407,
          reason: 'Proxy Authentication Required',
          headers: [['proxy-authenticate', challenge]],
        };
  }
  if ('status' in checked) return { kind: 'refuse', status: checked.status, reason: checked.reason };
  const { accountSid, voice } = checked.client;
  // verify() accepts a login of one client only, the one seen above with a voice URL.
  return voice?.url ? { kind: 'client', login, accountSid, voice } : { kind: 'number' };
}
