/** The typed REST client, `rcml-engine/client`. It imports nothing of the server side. */
export { createClient, RcmlClient } from './client.js';
export { RcmlApiError } from './errors.js';
export type { Lazy } from './lazy.js';
export type { Page, PageEnvelope, PagingOptions, RecordList } from './paging.js';
export type { UpdateApplicationParams } from './resources/accounts.js';
export type {
  CallHandle,
  CreateCallParams,
  ListCallNotificationsParams,
  ListCallRecordingsParams,
  ListCallsParams,
  UpdateCallParams,
} from './resources/calls.js';
export type {
  ConferenceHandle,
  ListConferencesParams,
  ListParticipantsParams,
  Participants,
  UpdateParticipantParams,
} from './resources/conferences.js';
export type { ListGathersParams } from './resources/gathers.js';
export type { ListNotificationsParams } from './resources/notifications.js';
export type { ListRecordingsParams, RecordingHandle } from './resources/recordings.js';
export type { SimCallParams, SimNumberParams } from './resources/sim.js';
export type { ClientOptions } from './transport.js';
export type {
  Account,
  Application,
  Call,
  Conference,
  DtmfGather,
  Notification,
  Participant,
  Recording,
  SimAdvance,
  SimDigits,
  SimNumber,
  SimParty,
  SimSpeech,
  SpeechGather,
} from './types.js';
