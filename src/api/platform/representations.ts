/** Records as the platform's API renders them: field names per format, dates, uris. */
import {
  API_VERSION,
  type CallRecord,
  type GatherRecord,
  type NotificationRecord,
  type RecordingRecord,
} from '../../engine/records.js';
import { organizationSid } from '../../engine/sids.js';
import type { AccountRecord, ApplicationRecord, ClientRecord } from '../../store/types.js';
import { iso8601, rfc2822 } from '../http/dates.js';
import type { Representation } from '../http/format.js';
import type { ClientRegistration } from './context.js';

const accountUri = (accountSid: string) => `/${API_VERSION}/Accounts/${accountSid}`;
const orEmpty = (s: string | undefined) => s ?? '';

export function callRep(c: CallRecord): Representation {
  const uri = `${accountUri(c.accountSid)}/Calls/${c.sid}`;
  return [
    ['Sid', 'sid', c.sid],
    ['InstanceId', 'InstanceId', c.instanceId],
    ['DateCreated', 'date_created', rfc2822(c.dateCreated)],
    ['DateUpdated', 'date_updated', rfc2822(c.dateUpdated)],
    ['ParentCallSid', 'parent_call_sid', orEmpty(c.parentCallSid)],
    ['AccountSid', 'account_sid', c.accountSid],
    ['To', 'to', c.to],
    ['From', 'from', c.from],
    ['PhoneNumberSid', 'phone_number_sid', orEmpty(c.phoneNumberSid)],
    ['Status', 'status', c.status],
    ['StartTime', 'start_time', c.startTime === undefined ? '' : iso8601(c.startTime)],
    ['EndTime', 'end_time', c.endTime === undefined ? '' : iso8601(c.endTime)],
    ['Duration', 'duration', c.duration ?? 0],
    ['Direction', 'direction', c.direction],
    ['AnsweredBy', 'answered_by', orEmpty(c.answeredBy)],
    ['ApiVersion', 'api_version', c.apiVersion],
    ['ForwardFrom', 'forwarded_from', orEmpty(c.forwardedFrom)],
    ['CallerName', 'caller_name', orEmpty(c.callerName)],
    // An extension of the platform's record: who ended the call ("" while it is live).
    ['EndedBy', 'ended_by', orEmpty(c.endedBy)],
    ['Uri', 'uri', `${uri}.json`],
    [
      'SubresourceUris',
      'subresource_uris',
      [
        ['Notifications', 'notifications', `${uri}/Notifications.json`],
        ['Recordings', 'recordings', `${uri}/Recordings.json`],
      ],
    ],
  ];
}

/** A call as its JSON object (the `callRep` fields under their JSON names, in the same order). */
export interface CallJson {
  sid: string;
  InstanceId: string;
  date_created: string;
  date_updated: string;
  parent_call_sid: string;
  account_sid: string;
  to: string;
  from: string;
  phone_number_sid: string;
  status: string;
  start_time: string;
  end_time: string;
  duration: number;
  direction: string;
  answered_by: string;
  api_version: string;
  forwarded_from: string;
  caller_name: string;
  ended_by: string;
  uri: string;
  subresource_uris: { notifications: string; recordings: string };
}

/**
 * A call's JSON object built straight from the record: `JSON.stringify` gives the same text as
 * for `toJson(callRep(c))`, without the field table in between (lists render many calls, and
 * one object literal per call keeps a single shape that V8 serializes fast).
 */
export function callJson(c: CallRecord): CallJson {
  const uri = `${accountUri(c.accountSid)}/Calls/${c.sid}`;
  return {
    sid: c.sid,
    InstanceId: c.instanceId,
    date_created: rfc2822(c.dateCreated),
    date_updated: rfc2822(c.dateUpdated),
    parent_call_sid: orEmpty(c.parentCallSid),
    account_sid: c.accountSid,
    to: c.to,
    from: c.from,
    phone_number_sid: orEmpty(c.phoneNumberSid),
    status: c.status,
    start_time: c.startTime === undefined ? '' : iso8601(c.startTime),
    end_time: c.endTime === undefined ? '' : iso8601(c.endTime),
    duration: c.duration ?? 0,
    direction: c.direction,
    answered_by: orEmpty(c.answeredBy),
    api_version: c.apiVersion,
    forwarded_from: orEmpty(c.forwardedFrom),
    caller_name: orEmpty(c.callerName),
    ended_by: orEmpty(c.endedBy),
    uri: `${uri}.json`,
    subresource_uris: { notifications: `${uri}/Notifications.json`, recordings: `${uri}/Recordings.json` },
  };
}

/** Decimal seconds as text, always with a fractional part (`5.0`, `2.25`). */
export function decimalSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? seconds.toFixed(1) : String(seconds);
}

/** `fileBase` is `{base_url}{prefix}/platform/2012-04-24`, where the `.wav` is served. */
export function recordingRep(r: RecordingRecord, fileBase: string): Representation {
  return [
    ['Sid', 'sid', r.sid],
    ['DateCreated', 'date_created', rfc2822(r.dateCreated)],
    ['DateUpdated', 'date_updated', rfc2822(r.dateUpdated)],
    ['AccountSid', 'account_sid', r.accountSid],
    ['CallSid', 'call_sid', r.callSid],
    ['Duration', 'duration', decimalSeconds(r.duration)],
    ['ApiVersion', 'api_version', r.apiVersion],
    ['Uri', 'uri', `${accountUri(r.accountSid)}/Recordings/${r.sid}.json`],
    ['FileUri', 'file_uri', `${fileBase}/Accounts/${r.accountSid}/Recordings/${r.sid}.wav`],
  ];
}

/**
 * A notification in the family's record shape. `error_code` is the code as text (platform codes
 * such as `21402` and the engine's own such as `12401` alike); the record keeps no
 * request method, so `request_method` is empty, and `more_info` links nowhere.
 */
export function notificationRep(n: NotificationRecord): Representation {
  const date = rfc2822(n.dateCreated);
  return [
    ['Sid', 'sid', n.sid],
    ['DateCreated', 'date_created', date],
    ['DateUpdated', 'date_updated', date],
    ['AccountSid', 'account_sid', n.accountSid],
    ['CallSid', 'call_sid', orEmpty(n.callSid)],
    ['ApiVersion', 'api_version', API_VERSION],
    ['Log', 'log', n.log],
    ['ErrorCode', 'error_code', n.code],
    ['MoreInfo', 'more_info', ''],
    ['MessageText', 'message_text', n.message],
    ['MessageDate', 'message_date', date],
    ['RequestUrl', 'request_url', orEmpty(n.url)],
    ['RequestMethod', 'request_method', ''],
    ['Uri', 'uri', `${accountUri(n.accountSid)}/Notifications/${n.sid}.json`],
  ];
}

/** Gather records are JSON only; their XML names equal their JSON names. */
export function gatherRep(g: GatherRecord): Representation {
  const path = g.kind === 'dtmf' ? 'DTMF' : 'Speech';
  const fields: Array<[string, string | number]> = [
    ['sid', g.sid],
    ['date_created', iso8601(g.dateCreated)],
    ['account_sid', g.accountSid],
    // Records written before gathers carried it: the account's organization all the same.
    ['org_sid', g.orgSid ?? organizationSid(g.accountSid)],
    ['call_sid', g.callSid],
    ['preTimeout', g.preTimeout],
    ['postTimeout', g.postTimeout],
    ['actionOnEmptyResult', String(g.actionOnEmptyResult)],
  ];
  if (g.kind === 'dtmf') fields.push(['digits_count', g.digitsCount]);
  else
    fields.push(
      ['provider', g.provider],
      ['language', g.language],
      ['hints', g.hints],
      ['duration', g.duration],
    );
  fields.push(
    ['status', g.status],
    ['reason', g.reason],
    ['api_version', g.apiVersion],
    ['uri', `${accountUri(g.accountSid)}/Gathers/${path}/${g.sid}.json`],
  );
  return fields.map(([name, value]) => [name, name, value] as const);
}

export function applicationRep(a: ApplicationRecord): Representation {
  return [
    ['Sid', 'sid', a.sid],
    ['DateCreated', 'date_created', rfc2822(a.dateCreated)],
    ['DateUpdated', 'date_updated', rfc2822(a.dateUpdated)],
    ['FriendlyName', 'friendly_name', a.friendlyName],
    ['AccountSid', 'account_sid', a.accountSid],
    ['ApiVersion', 'api_version', a.apiVersion],
    ['VoiceCallerIdLookup', 'voice_caller_id_lookup', a.voiceCallerIdLookup],
    ['Uri', 'uri', `${accountUri(a.accountSid)}/Applications/${a.sid}.json`],
    ['RcmlUrl', 'rcml_url', a.rcmlUrl],
    ['Kind', 'kind', a.kind],
  ];
}

/** A client, in the platform's field names; never its password. */
export function clientRep(c: ClientRecord, registration?: ClientRegistration): Representation {
  return [
    ['Sid', 'sid', c.sid],
    ['DateCreated', 'date_created', rfc2822(c.dateCreated)],
    ['DateUpdated', 'date_updated', rfc2822(c.dateUpdated)],
    ['AccountSid', 'account_sid', c.accountSid],
    ['ApiVersion', 'api_version', c.apiVersion],
    ['FriendlyName', 'friendly_name', c.friendlyName],
    ['Login', 'login', c.login],
    ['Status', 'status', c.status],
    ['VoiceUrl', 'voice_url', orEmpty(c.voiceUrl)],
    ['VoiceMethod', 'voice_method', c.voiceMethod],
    ['VoiceFallbackUrl', 'voice_fallback_url', orEmpty(c.voiceFallbackUrl)],
    ['VoiceFallbackMethod', 'voice_fallback_method', c.voiceFallbackMethod],
    ['VoiceApplicationSid', 'voice_application_sid', orEmpty(c.voiceApplicationSid)],
    // Where its softphone is registered now (an extension): a binding from a new source shows.
    ['RegisteredContact', 'registered_contact', orEmpty(registration?.contact)],
    ['RegisteredSource', 'registered_source', orEmpty(registration?.source)],
    ['RegisteredSince', 'registered_since', registration ? rfc2822(registration.since) : ''],
    ['RegistrationExpires', 'registration_expires', registration ? rfc2822(registration.expires) : ''],
    ['Uri', 'uri', `${accountUri(c.accountSid)}/Clients/${c.sid}.json`],
  ];
}

/** An account: the Twilio-family fields a client reads, with its organization (`org_sid`). */
export function accountRep(a: AccountRecord): Representation {
  const uri = accountUri(a.sid);
  return [
    ['Sid', 'sid', a.sid],
    ['FriendlyName', 'friendly_name', a.friendlyName],
    ['Status', 'status', a.status ?? 'active'],
    ['Type', 'type', 'Full'],
    ['OwnerAccountSid', 'owner_account_sid', a.ownerSid ?? a.sid],
    ['OrgSid', 'org_sid', organizationSid(a.sid)],
    ['DateCreated', 'date_created', rfc2822(a.dateCreated)],
    ['DateUpdated', 'date_updated', rfc2822(a.dateUpdated)],
    ['Uri', 'uri', `${uri}.json`],
    [
      'SubresourceUris',
      'subresource_uris',
      [
        ['Calls', 'calls', `${uri}/Calls.json`],
        ['Conferences', 'conferences', `${uri}/Conferences.json`],
        ['Notifications', 'notifications', `${uri}/Notifications.json`],
        ['Recordings', 'recordings', `${uri}/Recordings.json`],
      ],
    ],
  ];
}
