/**
 * What both sides of a call (the one we answered, the one we placed) answer alike inside a
 * dialog: INFO digits, OPTIONS, unknown methods; and the methods we allow.
 */

import { headerOf, type SipRequest, type SipResponse } from './message.js';
import { responseTo } from './responses.js';

/** The methods of our `Allow` header (INVITE answers, OPTIONS answers). */
export const ALLOWED_METHODS = 'INVITE, ACK, CANCEL, BYE, INFO, OPTIONS, UPDATE';

/**
 * Answers an in-dialog request other than BYE, INVITE and UPDATE: INFO with 200 (its digit, if
 * any, to `digit`), OPTIONS with 200 and our methods, NOTIFY with 481 (we hold no subscription,
 * RFC 6665 section 4.1.3), a method we know but do not take (REFER, MESSAGE...) with 405 and
 * our methods (RFC 3261 section 8.2.1), anything else with 501.
 */
export function answerOtherInDialog(
  request: SipRequest,
  send: (response: SipResponse) => void,
  digit: (key: string) => void,
): void {
  switch (request.method) {
    case 'INFO': {
      send(responseTo(request, 200));
      const key = dtmfOfInfo(headerOf(request.headers, 'content-type'), request.body);
      if (key) digit(key);
      return;
    }
    case 'OPTIONS':
      send(responseTo(request, 200, { headers: [['allow', ALLOWED_METHODS]] }));
      return;
    case 'NOTIFY':
      send(responseTo(request, 481, { reason: 'Subscription Does Not Exist' }));
      return;
    default:
      send(
        KNOWN_METHODS.has(request.method)
          ? responseTo(request, 405, { headers: [['allow', ALLOWED_METHODS]] })
          : responseTo(request, 501),
      );
  }
}

/** Methods of SIP's extensions that we know of and do not take. */
const KNOWN_METHODS = new Set(['REFER', 'SUBSCRIBE', 'MESSAGE', 'PRACK', 'PUBLISH', 'REGISTER']);

const DTMF_KEYS = '0123456789*#ABCD';

/** The key of a SIP INFO digit: `Signal=5` (dtmf-relay) or a bare `5` (application/dtmf). */
export function dtmfOfInfo(contentType: string | undefined, body: string): string | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  let value: string | undefined;
  if (type === 'application/dtmf-relay') value = /^\s*signal\s*=\s*(\S+)\s*$/im.exec(body)?.[1];
  else if (type === 'application/dtmf') value = body.trim();
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value) && Number(value) >= 10 && Number(value) <= 15) return DTMF_KEYS[Number(value)];
  const key = value.toUpperCase();
  return key.length === 1 && DTMF_KEYS.includes(key) ? key : undefined;
}
