import { API_VERSION } from '../../engine/records.js';
import type { CallQueueNumberRecord } from '../../store/callqueue/types.js';
import { rfc2822 } from '../http/dates.js';

/** Internal parameters `voiceUrl` carries: the number's sid and its provisioning state. */
export const NUMBER_SID_PARAM = 'CallQueueNumberSid';
export const STATE_PARAM = 'CallQueueState';

/** Where a number's status callbacks go: `{base_url}/callqueue/callback`. */
export const callbackUrl = (baseUrl: string) => `${baseUrl}/callqueue/callback`;

/**
 * The voice URL provisioned for a number: its application URL (credentials, path and query
 * kept) plus `CallQueueNumberSid` and `CallQueueState` (the provisioning revision: 1, then one
 * more at each override, so an application can tell requests of older settings apart).
 */
export function voiceUrlOf(number: CallQueueNumberRecord): string {
  const url = new URL(number.applicationUrl);
  url.searchParams.set(NUMBER_SID_PARAM, number.sid);
  url.searchParams.set(STATE_PARAM, String(number.revision));
  return url.toString();
}

/** The platform's Call Queuing number record, field for field. */
export function numberJson(number: CallQueueNumberRecord, baseUrl: string): Record<string, unknown> {
  return {
    sid: number.sid,
    phoneNumber: number.phoneNumber,
    accountSid: number.accountSid,
    friendlyName: number.phoneNumber,
    dateCreated: rfc2822(number.dateCreated),
    dateUpdated: rfc2822(number.dateUpdated),
    voiceUrl: voiceUrlOf(number),
    voiceMethod: number.applicationUrlMethod,
    statusCallback: callbackUrl(baseUrl),
    statusCallbackMethod: 'POST',
    apiVersion: API_VERSION,
    isSIP: number.byoc,
    uri: `/${API_VERSION}/Accounts/${number.accountSid}/IncomingPhoneNumbers/${number.sid}.json`,
    // Returned but unused (as on the platform): the product routes voice only, with no fallback.
    voiceFallbackUrl: null,
    voiceFallbackMethod: 'POST',
    voiceCallerIdLookup: false,
    voiceApplicationSid: null,
    smsUrl: null,
    smsMethod: 'POST',
    smsFallbackUrl: null,
    smsFallbackMethod: 'POST',
    smsApplicationSid: null,
  };
}
