import type { InboundVoice } from '../../engine/ports/inbound-voice.js';
import { headerOf, type SipHeaders } from './message.js';
import type { Registrar } from './registrar.js';
import type { UasInvite } from './uas-invite.js';

/** How an INVITE is taken with regard to registered clients (`authorizeClientInvite`). */
export type ClientInvite =
  /** A call to a routed number: run by the number, unchallenged, as any caller's. */
  | { kind: 'number' }
  /** Refused: a 407 digest challenge, 403 (a wrong answer, an unknown login, a lockout), 400. */
  | { kind: 'refuse'; status: number; reason?: string; headers?: SipHeaders }
  /** An authenticated client: its call runs its voice URL for its account. */
  | { kind: 'client'; login: string; accountSid: string; voice: InboundVoice };

/**
 * How an INVITE is taken when clients may register. Whether it is challenged depends on what it
 * calls, never on who its From names, so that the answers tell nobody which logins exist: an
 * INVITE to a routed number (`routed`) without credentials is run by the number, unchallenged,
 * whatever its From; any other INVITE (another number, `client:` or `sip:` targets, anything
 * only a client may call) is challenged (`407`), and its answer checked as a REGISTER's is (the
 * registrar's nonces, digest check and lockouts): a wrong one, an unknown login and a locked-out
 * login and source all get the same `403`. An INVITE that carries credentials is checked
 * whatever it calls. A client authenticated with a voice URL runs it; one without, by number.
 */
export function authorizeClientInvite(
  server: UasInvite,
  registrar: Registrar,
  routed: boolean,
): ClientInvite {
  const headers = server.invite.headers;
  const authorization = headerOf(headers, 'proxy-authorization') ?? headerOf(headers, 'authorization');
  if (!authorization && routed) return { kind: 'number' };
  const checked = registrar.verify(server.invite, server.callerUser, authorization, server.peer.address);
  if ('stale' in checked) {
    return {
      kind: 'refuse',
      status: 407,
      reason: 'Proxy Authentication Required',
      headers: registrar
        .challengeHeaders(checked.stale)
        .map((h): [string, string] => ['proxy-authenticate', h]),
    };
  }
  if ('status' in checked) return { kind: 'refuse', status: checked.status, reason: checked.reason };
  const { accountSid, voice } = checked.client;
  return voice?.url ? { kind: 'client', login: server.callerUser, accountSid, voice } : { kind: 'number' };
}
