/**
 * The operations of `{api_root}` (paths relative to it) and `/sim`: what each route takes and
 * answers, for the OpenAPI document and for the handlers' own checks (`parseQuery`).
 */
import { z } from 'zod';
import type { CallStatus } from '../../engine/records.js';
import type { CallSortKey, RecordingSortKey } from '../../store/types.js';
import { badParameter } from '../http/errors.js';
import { checkedText, dateQuery, oneOfQuery, pagingQuery, sortByQuery, textQuery } from '../http/query.js';
import { sidParam } from '../openapi/components.js';
import type { RouteDeclaration } from '../openapi/declare.js';
import { createCallSchema, modifyCallSchema, muteSchema } from './call-params.js';
import * as s from './schemas.js';

const JSON_OR_XML = { bare: 'xml' } as const;
const JSON_ONLY = { bare: 'json', xml: false } as const;
const BARE_JSON = { bare: 'json' } as const;

const account = { AccountSid: sidParam('AC') };
const call = { ...account, CallSid: sidParam('CA') };
const ok = (schema: z.ZodType, description: string) => ({ 200: { description, schema } });

/** Statuses a call list filters on, in the order the platform lists them. */
export const CALL_STATUSES: readonly CallStatus[] = [
  'queued',
  'ringing',
  'in-progress',
  'canceled',
  'completed',
  'failed',
  'busy',
  'no-answer',
];

/** `SortBy` attributes of the Calls list and the store's keys. */
export const CALL_SORT: Readonly<Record<string, CallSortKey>> = {
  DateCreated: 'dateCreated',
  From: 'from',
  To: 'to',
  Direction: 'direction',
  Status: 'status',
  Duration: 'duration',
};

/** `SortBy` attributes of the Recordings list and the store's keys. */
export const RECORDING_SORT: Readonly<Record<string, RecordingSortKey>> = {
  DateCreated: 'dateCreated',
  Duration: 'duration',
  CallSid: 'callSid',
};
const startTime = dateQuery(
  'StartTime',
  'Started (recordings: created) at or after; a date alone is its midnight',
);
const endTime = dateQuery(
  'EndTime',
  'Ended (recordings: created) at or before; a date alone is its midnight',
);

export const getAccount: RouteDeclaration = {
  operationId: 'getAccount',
  tag: 'Accounts',
  summary: 'The authenticated account or one of its sub-accounts (another one: 403)',
  path: '/Accounts/{AccountSid}',
  params: account,
  formats: JSON_OR_XML,
  responses: ok(s.Account, 'The account'),
};

const accountForm = z.object({
  FriendlyName: z.string().min(1).max(256).optional().describe('1 to 256 characters'),
  Status: z.enum(['active', 'suspended', 'closed']).optional().describe('closed is final'),
});

export const listAccounts: RouteDeclaration = {
  operationId: 'listAccounts',
  tag: 'Accounts',
  summary: 'The authenticated account and its sub-accounts',
  path: '/Accounts',
  formats: JSON_OR_XML,
  responses: ok(z.object({ accounts: z.array(s.Account) }).loose(), 'The accounts'),
};

export const createAccount: RouteDeclaration = {
  operationId: 'createAccount',
  tag: 'Accounts',
  summary: 'Create a sub-account (its auth token is in this answer only)',
  path: '/Accounts',
  formats: JSON_OR_XML,
  body: { form: accountForm.pick({ FriendlyName: true }) },
  responses: ok(s.Account, 'The new sub-account, with auth_token'),
};

export const updateAccount: RouteDeclaration = {
  operationId: 'updateAccount',
  tag: 'Accounts',
  summary: "Rename the account or a sub-account, or change a sub-account's Status",
  path: '/Accounts/{AccountSid}',
  params: account,
  formats: JSON_OR_XML,
  body: { form: accountForm },
  responses: ok(s.Account, 'The account'),
};

export const listCalls: RouteDeclaration = {
  operationId: 'listCalls',
  tag: 'Calls',
  summary: "The account's calls",
  path: '/Accounts/{AccountSid}/Calls',
  params: account,
  formats: JSON_OR_XML,
  query: z.object({
    ...pagingQuery,
    Status: oneOfQuery('Status', CALL_STATUSES, 'Calls in this status'),
    StartTime: startTime,
    EndTime: endTime,
    SortBy: sortByQuery(CALL_SORT),
    To: textQuery('Calls to this address'),
    From: textQuery('Calls from this address'),
    ParentCallSid: textQuery('Legs of this call'),
  }),
  responses: ok(s.CallList, 'One page of calls'),
};

export const createCall: RouteDeclaration = {
  operationId: 'createCall',
  tag: 'Calls',
  summary: 'Place an outbound call',
  description: '`X-*` fields become SIP headers. Answers 201 in the 2010-04-01 dialect.',
  path: '/Accounts/{AccountSid}/Calls',
  params: account,
  formats: JSON_OR_XML,
  body: { form: createCallSchema },
  responses: {
    ...ok(s.Call, 'The new call'),
    201: { description: 'The new call (2010-04-01 dialect)', schema: s.Call },
  },
};

export const getCall: RouteDeclaration = {
  operationId: 'getCall',
  tag: 'Calls',
  summary: 'One call',
  path: '/Accounts/{AccountSid}/Calls/{CallSid}',
  params: call,
  formats: JSON_OR_XML,
  responses: ok(s.Call, 'The call'),
};

const modifyCall = {
  tag: 'Calls',
  summary: 'Modify a live call: redirect, hang up, mute',
  description: 'One of `Url`, `Status`, `Mute` is required. A call that has ended answers 409.',
  params: call,
  body: { form: modifyCallSchema },
  responses: ok(s.Call, 'The call right after the change'),
} as const;

export const updateCall: RouteDeclaration = {
  ...modifyCall,
  operationId: 'updateCall',
  path: '/Accounts/{AccountSid}/Calls/{CallSid}',
  formats: JSON_OR_XML,
};

export const updateCallByJsonPath: RouteDeclaration = {
  ...modifyCall,
  operationId: 'updateCallByJsonPath',
  summary: "Modify a live call (the platform's `Calls.json/{CallSid}` spelling)",
  path: '/Accounts/{AccountSid}/Calls.json/{CallSid}',
};

const recordingQuery = z.object({
  ...pagingQuery,
  StartTime: startTime,
  EndTime: endTime,
  SortBy: sortByQuery(RECORDING_SORT),
  CallSid: textQuery('Recordings of this call'),
});

export const listRecordings: RouteDeclaration = {
  operationId: 'listRecordings',
  tag: 'Recordings',
  summary: "The account's recordings",
  path: '/Accounts/{AccountSid}/Recordings',
  params: account,
  formats: JSON_OR_XML,
  query: recordingQuery,
  responses: ok(s.RecordingList, 'One page of recordings'),
};

export const listCallRecordings: RouteDeclaration = {
  ...listRecordings,
  operationId: 'listCallRecordings',
  summary: "A call's recordings (deprecated: the CallSid filter replaces it)",
  path: '/Accounts/{AccountSid}/Calls/{CallSid}/Recordings',
  params: call,
  deprecated: true,
};

export const getRecording: RouteDeclaration = {
  operationId: 'getRecording',
  tag: 'Recordings',
  summary: 'One recording',
  path: '/Accounts/{AccountSid}/Recordings/{RecordingSid}',
  params: { ...account, RecordingSid: sidParam('RE') },
  formats: JSON_OR_XML,
  responses: ok(s.Recording, 'The recording'),
};

export const getRecordingAudio: RouteDeclaration = {
  operationId: 'getRecordingAudio',
  tag: 'Recordings',
  summary: "A recording's WAV file (no authentication; single byte ranges)",
  path: '/Accounts/{AccountSid}/Recordings/{RecordingSid}.wav',
  params: { ...account, RecordingSid: sidParam('RE') },
  auth: 'none',
  responses: {
    200: { description: 'The audio', contentType: 'audio/wav' },
    206: { description: 'The range asked for', contentType: 'audio/wav' },
  },
};

export const deleteRecording: RouteDeclaration = {
  operationId: 'deleteRecording',
  tag: 'Recordings',
  summary: 'Delete a recording and its file',
  path: '/Accounts/{AccountSid}/Recordings/{RecordingSid}',
  params: { ...account, RecordingSid: sidParam('RE') },
  formats: BARE_JSON,
  responses: { 204: { description: 'Deleted' } },
};

const gatherQuery = z.object({
  ...pagingQuery,
  DateCreated: dateQuery('DateCreated', 'Created within this day or second'),
  CallSid: textQuery('Gathers of this call'),
});

function gatherOperations(kind: 'Dtmf' | 'Speech', path: string, list: z.ZodType, one: z.ZodType) {
  const params = account;
  return {
    list: {
      operationId: `list${kind}Gathers`,
      tag: 'Gathers',
      summary: `The account's ${kind === 'Dtmf' ? 'DTMF' : 'speech'} gathers`,
      path: `/Accounts/{AccountSid}/Gathers/${path}`,
      params,
      formats: JSON_ONLY,
      query: gatherQuery,
      responses: ok(list, 'One page of gathers'),
    } satisfies RouteDeclaration,
    get: {
      operationId: `get${kind}Gather`,
      tag: 'Gathers',
      summary: `One ${kind === 'Dtmf' ? 'DTMF' : 'speech'} gather`,
      path: `/Accounts/{AccountSid}/Gathers/${path}/{GatherSid}`,
      params,
      formats: JSON_ONLY,
      responses: ok(one, 'The gather'),
    } satisfies RouteDeclaration,
  };
}

export const dtmfGathers = gatherOperations('Dtmf', 'DTMF', s.GatherDtmfList, s.GatherDtmf);
export const speechGathers = gatherOperations('Speech', 'Speech', s.GatherSpeechList, s.GatherSpeech);

/** `Log` filter: `0` (errors) or `1` (warnings); 400 naming it otherwise. */
export function parseLog(raw: string | undefined): 0 | 1 | undefined {
  if (raw === undefined) return undefined;
  if (raw === '0' || raw === '1') return raw === '0' ? 0 : 1;
  throw badParameter('Log', `expected 0 (error) or 1 (warning), got ${JSON.stringify(raw)}`);
}

/** `true`/`false` filter; 400 naming it otherwise. */
export function parseBool(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw badParameter(name, `expected true or false, got ${JSON.stringify(raw)}`);
}

const notificationQuery = z.object({
  ...pagingQuery,
  Log: checkedText('Log', parseLog, { description: '0 errors, 1 warnings', enum: ['0', '1'] }),
  MessageDate: dateQuery('MessageDate', 'Created within this day or second'),
  CallSid: textQuery('Notifications of this call'),
});

export const listNotifications: RouteDeclaration = {
  operationId: 'listNotifications',
  tag: 'Notifications',
  summary: "The account's notifications, in creation order",
  path: '/Accounts/{AccountSid}/Notifications',
  params: account,
  formats: JSON_OR_XML,
  query: notificationQuery,
  responses: ok(s.NotificationList, 'One page of notifications'),
};

export const listCallNotifications: RouteDeclaration = {
  ...listNotifications,
  operationId: 'listCallNotifications',
  summary: "A call's notifications (the path's call replaces any CallSid)",
  path: '/Accounts/{AccountSid}/Calls/{CallSid}/Notifications',
  params: call,
};

export const getNotification: RouteDeclaration = {
  operationId: 'getNotification',
  tag: 'Notifications',
  summary: 'One notification',
  path: '/Accounts/{AccountSid}/Notifications/{NotificationSid}',
  params: { ...account, NotificationSid: sidParam('NO') },
  formats: JSON_OR_XML,
  responses: ok(s.Notification, 'The notification'),
};

export const updateApplication: RouteDeclaration = {
  operationId: 'updateApplication',
  tag: 'Applications',
  summary: 'Rename an application',
  path: '/Accounts/{AccountSid}/Applications/{ApplicationSid}',
  params: { ...account, ApplicationSid: sidParam('AP') },
  formats: BARE_JSON,
  body: { form: z.object({ FriendlyName: z.string().min(1).max(256).describe('1 to 256 characters') }) },
  responses: ok(s.Application, 'The renamed application'),
};

const conference = { ...account, ConferenceSid: sidParam('CF') };
const boolQuery = (name: string, description: string) =>
  checkedText(name, (v) => parseBool(name, v), { description, enum: ['true', 'false'] });

export const listConferences: RouteDeclaration = {
  operationId: 'listConferences',
  tag: 'Conferences',
  summary: "The account's conference rooms, in creation order",
  path: '/Accounts/{AccountSid}/Conferences',
  params: account,
  formats: JSON_OR_XML,
  query: z.object({
    Status: oneOfQuery('Status', ['init', 'in-progress', 'completed'], 'Rooms in this status'),
    ...pagingQuery,
    FriendlyName: textQuery('Rooms of this name'),
    DateCreated: dateQuery('DateCreated', 'Opened within this day or second'),
    DateUpdated: dateQuery('DateUpdated', 'Last changed within this day or second'),
  }),
  responses: ok(s.ConferenceList, 'One page of rooms'),
};

export const getConference: RouteDeclaration = {
  operationId: 'getConference',
  tag: 'Conferences',
  summary: 'One conference room',
  path: '/Accounts/{AccountSid}/Conferences/{ConferenceSid}',
  params: conference,
  formats: JSON_OR_XML,
  responses: ok(s.Conference, 'The room'),
};

export const listParticipants: RouteDeclaration = {
  operationId: 'listParticipants',
  tag: 'Conferences',
  summary: "A room's current participants, in order of arrival",
  path: '/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants',
  params: conference,
  formats: JSON_OR_XML,
  query: z.object({
    Muted: boolQuery('Muted', 'Muted ones (true) or not (false)'),
    Hold: boolQuery('Hold', 'Held ones (true) or not (false)'),
    ...pagingQuery,
  }),
  responses: ok(s.ParticipantList, 'One page of participants'),
};

export const getParticipant: RouteDeclaration = {
  operationId: 'getParticipant',
  tag: 'Conferences',
  summary: 'One participant',
  path: '/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants/{CallSid}',
  params: { ...conference, CallSid: sidParam('CA') },
  formats: JSON_OR_XML,
  responses: ok(s.Participant, 'The participant'),
};

export const updateParticipant: RouteDeclaration = {
  operationId: 'updateParticipant',
  tag: 'Conferences',
  summary: 'Mute or unmute a participant',
  path: '/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants/{CallSid}',
  params: { ...conference, CallSid: sidParam('CA') },
  formats: BARE_JSON,
  body: { form: muteSchema },
  responses: ok(s.Call, "The participant's call"),
};
