/**
 * The JSON answers of `{api_root}` and `/sim` as zod schemas (the named components of the
 * OpenAPI document). They describe what `representations.ts` renders; the test suite checks
 * every answer against them.
 */
import { z } from 'zod';
import { pageOf } from '../openapi/components.js';

const rfc2822 = z.string().describe('RFC 2822 date (`Tue, 05 Mar 2024 12:00:01 +0000`)');
const isoOrEmpty = z.string().describe('ISO 8601 with milliseconds and `Z`; `""` when not (yet) known');
const uri = z.string().describe('Path of this record under `/2012-04-24`, JSON');
const orEmpty = (description: string) => z.string().describe(`${description}; \`""\` when none`);

export const Call = z
  .object({
    sid: z.string(),
    InstanceId: z.string().describe('The engine instance that ran the call'),
    date_created: rfc2822,
    date_updated: rfc2822,
    parent_call_sid: orEmpty('The call that dialed this leg'),
    account_sid: z.string(),
    to: z.string(),
    from: z.string(),
    phone_number_sid: orEmpty('The number called'),
    status: z.enum([
      'queued',
      'ringing',
      'in-progress',
      'canceled',
      'completed',
      'failed',
      'busy',
      'no-answer',
    ]),
    start_time: isoOrEmpty,
    end_time: isoOrEmpty,
    duration: z.number().int().describe('Seconds; 0 until the call ends'),
    direction: z.enum(['inbound', 'outbound-api', 'outbound-dial']),
    answered_by: z.string().describe('`human`, `machine` or `""`'),
    api_version: z.string(),
    forwarded_from: orEmpty('The forwarding number'),
    caller_name: orEmpty('The caller name'),
    ended_by: z
      .enum(['', 'caller', 'application', 'api', 'timeout', 'engine'])
      .describe('Who ended the call; `""` while it is live (extension)'),
    uri,
    subresource_uris: z.object({ notifications: z.string(), recordings: z.string() }),
  })
  .meta({ id: 'Call', description: 'A call' });

export const CallList = pageOf('CallList', 'calls', Call);

export const Recording = z
  .object({
    sid: z.string(),
    date_created: rfc2822,
    date_updated: rfc2822,
    account_sid: z.string(),
    call_sid: z.string(),
    duration: z.string().describe('Decimal seconds as text (`"2.5"`, `"3.0"`)'),
    api_version: z.string(),
    uri,
    file_uri: z.string().describe('URL of the WAV file (no authentication)'),
  })
  .meta({ id: 'Recording', description: 'A recording' });

export const RecordingList = pageOf('RecordingList', 'recordings', Recording);

export const Notification = z
  .object({
    sid: z.string(),
    date_created: rfc2822,
    date_updated: rfc2822,
    account_sid: z.string(),
    call_sid: orEmpty('The call concerned'),
    api_version: z.string(),
    log: z.union([z.literal(0), z.literal(1)]).describe('0 error, 1 warning'),
    error_code: z.string().describe('The code as text (docs/errors.md, docs/engine.md)'),
    more_info: z.string(),
    message_text: z.string(),
    message_date: rfc2822,
    request_url: orEmpty('The document or callback URL concerned'),
    request_method: z.string().describe('`""`: not recorded'),
    uri,
  })
  .meta({ id: 'Notification', description: 'An error or warning' });

export const NotificationList = pageOf('NotificationList', 'notifications', Notification);

const gatherFields = {
  sid: z.string(),
  date_created: z.string().describe('ISO 8601 with milliseconds and `Z`'),
  account_sid: z.string(),
  org_sid: z.string(),
  call_sid: z.string(),
  preTimeout: z.number(),
  postTimeout: z.number(),
  actionOnEmptyResult: z.enum(['true', 'false']),
};
const gatherTail = {
  status: z.enum(['completed', 'failed']),
  reason: z.string(),
  api_version: z.string(),
  uri,
};

export const GatherDtmf = z
  .object({ ...gatherFields, digits_count: z.number().int(), ...gatherTail })
  .meta({ id: 'GatherDtmf', description: 'A DTMF gather' });

export const GatherSpeech = z
  .object({
    ...gatherFields,
    provider: z.string(),
    language: z.string(),
    hints: z.string(),
    duration: z.number(),
    ...gatherTail,
  })
  .meta({ id: 'GatherSpeech', description: 'A speech gather' });

export const GatherDtmfList = pageOf('GatherDtmfList', 'gathers', GatherDtmf);
export const GatherSpeechList = pageOf('GatherSpeechList', 'gathers', GatherSpeech);

export const Application = z
  .object({
    sid: z.string(),
    date_created: rfc2822,
    date_updated: rfc2822,
    friendly_name: z.string(),
    account_sid: z.string(),
    api_version: z.string(),
    voice_caller_id_lookup: z.boolean(),
    uri,
    rcml_url: z.string().describe('Path of the controller serving its RCML'),
    kind: z.enum(['voice', 'sms', 'ussd']),
  })
  .meta({ id: 'Application', description: 'An application' });

export const Client = z
  .object({
    sid: z.string(),
    date_created: rfc2822,
    date_updated: rfc2822,
    account_sid: z.string(),
    api_version: z.string(),
    friendly_name: z.string(),
    login: z.string().describe('What the softphone registers as, and is called by (`client:<login>`)'),
    status: z.enum(['active', 'inactive']).describe('Only an active client may register'),
    voice_url: orEmpty('Where calls the client places are to be answered from'),
    voice_method: z.enum(['GET', 'POST']),
    voice_fallback_url: orEmpty('Fallback of voice_url'),
    voice_fallback_method: z.enum(['GET', 'POST']),
    voice_application_sid: orEmpty('An application answering instead of voice_url'),
    registered_contact: orEmpty('The Contact its softphone registered over SIP (extension)'),
    registered_source: orEmpty('Where that REGISTER came from, address:port (extension)'),
    registered_since: z
      .string()
      .describe(
        'RFC 2822 date it has been registered from that source since; `""` when not registered (extension)',
      ),
    registration_expires: z
      .string()
      .describe('RFC 2822 date its registration ends; `""` when not registered (extension)'),
    uri,
  })
  .meta({
    id: 'Client',
    description: 'A client (softphone user); its password is never answered (extension)',
  });

export const ClientList = pageOf('ClientList', 'clients', Client);

export const Account = z
  .object({
    sid: z.string(),
    friendly_name: z.string(),
    status: z.enum(['active', 'suspended', 'closed']),
    type: z.literal('Full'),
    owner_account_sid: z
      .string()
      .describe('The account that created this sub-account; its own sid for a top-level account'),
    auth_token: z.string().optional().describe('Only in the answer that creates the account: shown once'),
    org_sid: z.string().describe("The account's organization (`OR` + 32 hex digits)"),
    date_created: rfc2822,
    date_updated: rfc2822,
    uri,
    subresource_uris: z.object({
      calls: z.string(),
      conferences: z.string(),
      notifications: z.string(),
      recordings: z.string(),
    }),
  })
  .meta({ id: 'Account', description: 'An account' });

export const Conference = z
  .object({
    sid: z.string(),
    date_created: rfc2822,
    date_updated: rfc2822,
    account_sid: z.string(),
    friendly_name: z.string(),
    status: z.enum(['init', 'in-progress', 'completed']),
    api_version: z.string(),
    uri,
    subresource_uris: z.object({ participants: z.string() }),
  })
  .meta({ id: 'Conference', description: 'A conference room (extension)' });

export const ConferenceList = pageOf('ConferenceList', 'conferences', Conference);

export const Participant = z
  .object({
    call_sid: z.string(),
    conference_sid: z.string(),
    account_sid: z.string(),
    date_created: rfc2822,
    date_updated: rfc2822,
    muted: z.boolean(),
    hold: z.boolean(),
    start_conference_on_enter: z.boolean(),
    end_conference_on_exit: z.boolean(),
    uri,
  })
  .meta({ id: 'Participant', description: 'A participant of a conference room (extension)' });

export const ParticipantList = pageOf('ParticipantList', 'participants', Participant);

export const SimNumber = z
  .object({ number: z.string(), voice_url: z.string(), voice_method: z.enum(['GET', 'POST']) })
  .meta({ id: 'SimNumber', description: 'A number routed to a voice URL' });

export const SimDigits = z
  .object({ call_sid: z.string(), digits: z.string() })
  .meta({ id: 'SimDigits', description: 'Keys pressed on a live call' });

export const SimSpeech = z
  .object({ call_sid: z.string(), text: z.string() })
  .meta({ id: 'SimSpeech', description: 'A phrase said on a live call' });

export const SimClock = z
  .object({ now: z.string().describe('ISO 8601') })
  .meta({ id: 'SimClock', description: 'The virtual time' });
