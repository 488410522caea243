/** The typed REST client, `rcml-engine/client`. It imports nothing of the server side. */
export { createClient, RcmlClient } from './client.js';
export { RcmlApiError } from './errors.js';
export type { Lazy } from './lazy.js';
export type { Page, PagingOptions, RecordList } from './paging.js';
export type { UpdateApplicationParams } from './resources/accounts.js';
export type {
  CallEvent,
  CallHandle,
  CreateCallParams,
  ListCallNotificationsParams,
  ListCallRecordingsParams,
  ListCallsParams,
  UpdateCallParams,
} from './resources/calls.js';
export type { CreateClientParams, ListClientsParams, UpdateClientParams } from './resources/clients.js';
export type {
  ConferenceHandle,
  ListConferencesParams,
  ListParticipantsParams,
  Participants,
  UpdateParticipantParams,
} from './resources/conferences.js';
export type { GatherRecords, ListDtmfGathersParams, ListSpeechGathersParams } from './resources/gathers.js';
export type { ListNotificationsParams } from './resources/notifications.js';
export type { ListRecordingsParams, RecordingHandle } from './resources/recordings.js';
export type { SimCallParams, SimNumberParams } from './resources/sim.js';
export type { ClientOptions } from './transport.js';
export type {
  Account,
  Application,
  Call,
  Client,
  Conference,
  DtmfGather,
  ErrorBody,
  Notification,
  PageEnvelope,
  Participant,
  Recording,
  SimAdvance,
  SimDigits,
  SimNumber,
  SimParty,
  SimSpeech,
  SpeechGather,
} from './types.js';
