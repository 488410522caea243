/**
 * Records and parameters of the API as the client sees them. PROVISIONAL: written by hand
 * from docs/api.md until the types generated from the server's OpenAPI document replace them.
 */

/** A call record (`GET Calls/{CallSid}.json`). */
export interface Call {
  sid: string;
  InstanceId: string;
  date_created: string;
  date_updated: string;
  parent_call_sid: string;
  account_sid: string;
  to: string;
  from: string;
  phone_number_sid: string;
  status: 'queued' | 'ringing' | 'in-progress' | 'canceled' | 'completed' | 'failed' | 'busy' | 'no-answer';
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

export interface Recording {
  sid: string;
  date_created: string;
  date_updated: string;
  account_sid: string;
  call_sid: string;
  duration: string;
  api_version: string;
  uri: string;
  file_uri: string;
}

export interface Notification {
  sid: string;
  date_created: string;
  date_updated: string;
  account_sid: string;
  call_sid: string;
  api_version: string;
  log: number;
  error_code: string;
  more_info: string;
  message_text: string;
  message_date: string;
  request_url: string;
  request_method: string;
  uri: string;
}

interface GatherCommon {
  sid: string;
  date_created: string;
  account_sid: string;
  org_sid: string;
  call_sid: string;
  preTimeout: number;
  postTimeout: number;
  actionOnEmptyResult: string;
  status: string;
  reason: string;
  api_version: string;
  uri: string;
}
export interface DtmfGather extends GatherCommon {
  digits_count: number;
}
export interface SpeechGather extends GatherCommon {
  provider: string;
  language: string;
  hints: string;
  duration: number;
}

export interface Conference {
  sid: string;
  date_created: string;
  date_updated: string;
  account_sid: string;
  friendly_name: string;
  status: 'init' | 'in-progress' | 'completed';
  api_version: string;
  uri: string;
  subresource_uris: { participants: string };
}

export interface Participant {
  call_sid: string;
  conference_sid: string;
  account_sid: string;
  date_created: string;
  date_updated: string;
  muted: boolean;
  hold: boolean;
  start_conference_on_enter: boolean;
  end_conference_on_exit: boolean;
  uri: string;
}

export interface Application {
  sid: string;
  date_created: string;
  date_updated: string;
  friendly_name: string;
  account_sid: string;
  api_version: string;
  voice_caller_id_lookup: boolean;
  uri: string;
  rcml_url: string;
  kind: string;
}

export interface Account {
  sid: string;
  friendly_name: string;
  status: string;
  type: string;
  org_sid: string;
  date_created: string;
  date_updated: string;
  uri: string;
  subresource_uris: { calls: string; conferences: string; notifications: string; recordings: string };
}

type Method = 'GET' | 'POST';
type CallbackEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

/** Form fields of `POST Calls`. */
export interface CreateCallForm {
  From: string;
  To: string;
  Url: string;
  Method?: Method;
  FallbackUrl?: string;
  FallbackMethod?: Method;
  StatusCallback?: string;
  StatusCallbackMethod?: Method;
  StatusCallbackEvent?: CallbackEvent[];
  Timeout?: number;
}

/** Form fields of `POST Calls/{CallSid}`. */
export interface ModifyCallForm {
  Url?: string;
  Method?: Method;
  Status?: 'canceled' | 'completed';
  Mute?: boolean;
  FallbackUrl?: string;
  FallbackMethod?: Method;
  StatusCallback?: string;
  StatusCallbackMethod?: Method;
  MoveConnectedCallLeg?: boolean;
  ChildCallMode?: 'Hangup' | 'Move' | 'StayConnected';
}

export interface ListCallsQuery {
  To?: string;
  From?: string;
  Status?: Call['status'];
  StartTime?: string;
  EndTime?: string;
  ParentCallSid?: string;
  SortBy?: string;
}
export interface ListRecordingsQuery {
  StartTime?: string;
  EndTime?: string;
  CallSid?: string;
  SortBy?: string;
}
export interface ListNotificationsQuery {
  CallSid?: string;
  Log?: 0 | 1;
  MessageDate?: string;
}
export interface ListGathersQuery {
  CallSid?: string;
  DateCreated?: string;
}
export interface ListConferencesQuery {
  FriendlyName?: string;
  Status?: Conference['status'];
}
export interface ListParticipantsQuery {
  Muted?: boolean;
  Hold?: boolean;
}
export interface UpdateParticipantForm {
  Mute: boolean;
}
export interface UpdateApplicationForm {
  FriendlyName: string;
}

export interface SimCallForm {
  From: string;
  To: string;
}
export interface SimNumberForm {
  Number: string;
  VoiceUrl?: string;
  ApplicationSid?: string;
  VoiceMethod?: Method;
}
export interface SimNumber {
  number: string;
  voice_url: string;
  voice_method: string;
}
/** `POST /sim/Parties` (JSON): a simulated party's behaviour, times in seconds. */
export interface SimParty {
  address: string;
  outcome?: 'answer' | 'busy' | 'no-answer' | 'fail';
  answerAfter?: number;
  hangupAfter?: number;
  digits?: Array<{ at: number; keys: string }>;
  speech?: Array<{ at: number; text: string }>;
}
export interface SimDigits {
  call_sid: string;
  digits: string;
}
export interface SimSpeech {
  call_sid: string;
  text: string;
}
export interface SimAdvance {
  /** ISO 8601. */
  now: string;
}
