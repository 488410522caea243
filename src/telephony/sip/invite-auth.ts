import { authorizationFor } from './digest.js';
import { cseqOf, headerOf, type SipHeaders, type SipRequest, type SipResponse } from './message.js';

/**
 * Our INVITE sent again with credentials answering `challenge` (a 401 or 407; RFC 3261
 * section 22.2): the new `branch`, the next CSeq, Call-ID and From tag kept, an `Authorization`
 * (or `Proxy-Authorization`) header. Undefined when the challenge cannot be answered.
 */
export function authenticatedInvite(
  invite: SipRequest,
  challenge: SipResponse,
  credentials: { username: string; password: string },
  branch: string,
): SipRequest | undefined {
  const proxy = challenge.status === 407;
  const header = headerOf(challenge.headers, proxy ? 'proxy-authenticate' : 'www-authenticate');
  const authorization = header && authorizationFor(header, credentials, 'INVITE', invite.uri);
  if (!authorization) return undefined;
  const seq = cseqOf(invite).seq + 1;
  const headers: SipHeaders = invite.headers.map(([name, value]): [string, string] => {
    if (name === 'via') return [name, value.replace(/;branch=[^;]+/, `;branch=${branch}`)];
    if (name === 'cseq') return [name, `${seq} INVITE`];
    return [name, value];
  });
  const at = headers.findIndex(([name]) => name === 'content-type');
  headers.splice(at < 0 ? headers.length : at, 0, [
    proxy ? 'proxy-authorization' : 'authorization',
    authorization,
  ]);
  return { ...invite, headers };
}
