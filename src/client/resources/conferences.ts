import { type Lazy, lazy } from '../lazy.js';
import type { PagingOptions, RecordList } from '../paging.js';
import type { Transport } from '../transport.js';
import type {
  Call,
  Conference,
  ListConferencesQuery,
  ListParticipantsQuery,
  Participant,
  UpdateParticipantForm,
} from '../types.js';
import { type CamelCased, wirePairs } from '../wire.js';
import { accountUrl, listOf, segment } from './base.js';

export type ListConferencesParams = CamelCased<ListConferencesQuery> & PagingOptions;
export type ListParticipantsParams = CamelCased<ListParticipantsQuery> & PagingOptions;
export type UpdateParticipantParams = CamelCased<UpdateParticipantForm>;

/** The participants of one room. */
export interface Participants {
  /** Current participants in order of arrival. */
  list(params?: ListParticipantsParams): RecordList<Participant>;
  get(callSid: string): Promise<Participant>;
  /** Mutes or unmutes a participant; answers the participant's call record (as the API does). */
  update(callSid: string, params: UpdateParticipantParams): Promise<Call>;
}

/** A conference room by sid: `await` it for the record, or reach its participants. */
export type ConferenceHandle = Lazy<
  Conference,
  { readonly sid: string; readonly participants: Participants }
>;

/** `{api_root}/Accounts/{AccountSid}/Conferences`: the rooms the engine holds, live and ended. */
export class Conferences {
  constructor(private readonly t: Transport) {}

  list(params?: ListConferencesParams): RecordList<Conference> {
    return listOf(this.t, accountUrl(this.t, '/Conferences.json'), 'conferences', params);
  }

  get(sid: string): ConferenceHandle {
    const path = `/Conferences/${segment('sid', sid)}`;
    const t = this.t;
    const participant = (callSid: string) =>
      accountUrl(t, `${path}/Participants/${segment('callSid', callSid)}.json`);
    return lazy(() => t.json<Conference>({ method: 'GET', url: accountUrl(t, `${path}.json`) }), {
      sid,
      participants: {
        list: (params?: ListParticipantsParams) =>
          listOf<Participant>(t, accountUrl(t, `${path}/Participants.json`), 'participants', params),
        get: async (callSid: string) => t.json<Participant>({ method: 'GET', url: participant(callSid) }),
        update: async (callSid: string, params: UpdateParticipantParams) =>
          t.json<Call>({ method: 'POST', url: participant(callSid), form: wirePairs(params) }),
      },
    });
  }
}
