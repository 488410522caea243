/**
 * Records and parameters of the API as the client sees them, taken from the types generated
 * from the server's OpenAPI document (schema.ts, `npm run gen:client`).
 */
import type { components, operations } from './schema.js';

type Schemas = components['schemas'];
type Operation = keyof operations;

/** The form fields of an operation's body. */
type Form<Op extends Operation> =
  NonNullable<operations[Op]['requestBody']> extends {
    content: { 'application/x-www-form-urlencoded': infer F };
  }
    ? F
    : never;

/** The JSON body of an operation. */
type JsonBody<Op extends Operation> =
  NonNullable<operations[Op]['requestBody']> extends {
    content: { 'application/json': infer B };
  }
    ? B
    : never;

/** A list operation's filters: its query without the paging the client does itself. */
type Filters<Op extends Operation> = Omit<
  NonNullable<operations[Op]['parameters']['query']>,
  'AfterSid' | 'Page' | 'PageSize' | 'Limit'
>;

export type Account = Schemas['Account'];
export type Call = Schemas['Call'];
export type Recording = Schemas['Recording'];
export type Notification = Schemas['Notification'];
export type DtmfGather = Schemas['GatherDtmf'];
export type SpeechGather = Schemas['GatherSpeech'];
export type Conference = Schemas['Conference'];
export type Participant = Schemas['Participant'];
export type Application = Schemas['Application'];
export type Client = Schemas['Client'];
/** The envelope of every list page (beside the list itself). */
export type PageEnvelope = Schemas['PageEnvelope'];
/** The API's error body. */
export type ErrorBody = Schemas['Error'];
export type SimNumber = Schemas['SimNumber'];
export type SimDigits = Schemas['SimDigits'];
export type SimSpeech = Schemas['SimSpeech'];
/** The virtual time after `POST /sim/Advance` (ISO 8601). */
export type SimAdvance = Schemas['SimClock'];
/** `POST /sim/Parties`: a simulated party's behaviour, times in seconds. */
export type SimParty = JsonBody<'setSimParty'>;

export type CreateCallForm = Form<'createCall'>;
export type ModifyCallForm = Form<'updateCall'>;
export type UpdateParticipantForm = Form<'updateParticipant'>;
export type UpdateApplicationForm = Form<'updateApplication'>;
export type CreateClientForm = Form<'createClient'>;
export type UpdateClientForm = Form<'updateClient'>;
export type SimCallForm = Form<'createSimCall'>;
export type SimNumberForm = Form<'setSimNumber'>;

export type ListCallsQuery = Filters<'listCalls'>;
export type ListRecordingsQuery = Filters<'listRecordings'>;
export type ListCallRecordingsQuery = Filters<'listCallRecordings'>;
export type ListNotificationsQuery = Filters<'listNotifications'>;
export type ListCallNotificationsQuery = Filters<'listCallNotifications'>;
export type ListDtmfGathersQuery = Filters<'listDtmfGathers'>;
export type ListSpeechGathersQuery = Filters<'listSpeechGathers'>;
export type ListConferencesQuery = Filters<'listConferences'>;
export type ListParticipantsQuery = Filters<'listParticipants'>;
export type ListClientsQuery = Filters<'listClients'>;
