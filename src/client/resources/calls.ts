import { type Lazy, lazy } from '../lazy.js';
import type { PagingOptions, RecordList } from '../paging.js';
import type { Transport } from '../transport.js';
import type {
  Call,
  CreateCallForm,
  ListCallNotificationsQuery,
  ListCallRecordingsQuery,
  ListCallsQuery,
  ModifyCallForm,
  Notification,
  Recording,
} from '../types.js';
import { type CamelCased, wirePairs } from '../wire.js';
import { accountUrl, listOf, segment } from './base.js';

/** Call progress events a status callback can subscribe to. */
export type CallEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

/** `client.calls.create(...)`: the form fields of `POST Calls` in camelCase, plus SIP headers. */
export type CreateCallParams = Omit<CamelCased<CreateCallForm>, 'statusCallbackEvent'> & {
  /**
   * The events to report to `statusCallback` (default `completed`), sent as the field
   * repeated. (The document types the field as text, the events separated by spaces or commas.)
   */
  statusCallbackEvent?: CallEvent | readonly CallEvent[];
  /** SIP headers of the outgoing INVITE, each name starting with `X-`. */
  sipHeaders?: Record<string, string>;
};
/** `client.calls.update(sid, ...)`: one of `url`, `status` or `mute` is required. */
export type UpdateCallParams = CamelCased<ModifyCallForm>;
export type ListCallsParams = CamelCased<ListCallsQuery> & PagingOptions;
export type ListCallNotificationsParams = CamelCased<ListCallNotificationsQuery> & PagingOptions;
export type ListCallRecordingsParams = CamelCased<ListCallRecordingsQuery> & PagingOptions;

/** A call by sid: `await` it for the record, or reach what hangs off it. */
export type CallHandle = Lazy<
  Call,
  {
    readonly sid: string;
    update(params: UpdateCallParams): Promise<Call>;
    /** The call's notifications (`Calls/{CallSid}/Notifications`). */
    notifications(params?: ListCallNotificationsParams): RecordList<Notification>;
    /** The call's recordings (`Calls/{CallSid}/Recordings`). */
    recordings(params?: ListCallRecordingsParams): RecordList<Recording>;
  }
>;

function sipHeaderPairs(headers: Record<string, string> | undefined): Array<[string, string]> {
  return Object.entries(headers ?? {}).map(([name, value]) => {
    if (!/^X-/i.test(name)) throw new TypeError(`sipHeaders.${name}: a SIP header name must start with X-`);
    return [name, String(value)];
  });
}

/** `{api_root}/Accounts/{AccountSid}/Calls`. */
export class Calls {
  constructor(private readonly t: Transport) {}

  /** Places an outbound call; answers the call as created (`queued`). */
  async create(params: CreateCallParams): Promise<Call> {
    const { sipHeaders, ...fields } = params;
    const form = [...wirePairs(fields), ...sipHeaderPairs(sipHeaders)];
    return this.t.json({ method: 'POST', url: accountUrl(this.t, '/Calls.json'), form });
  }

  /** The account's calls matching the filters, page by page as iterated. */
  list(params?: ListCallsParams): RecordList<Call> {
    return listOf(this.t, accountUrl(this.t, '/Calls.json'), 'calls', params);
  }

  get(sid: string): CallHandle {
    const path = `/Calls/${segment('sid', sid)}`;
    return lazy(() => this.t.json<Call>({ method: 'GET', url: accountUrl(this.t, `${path}.json`) }), {
      sid,
      update: (params: UpdateCallParams) => this.update(sid, params),
      notifications: (params?: ListCallNotificationsParams) =>
        listOf<Notification>(
          this.t,
          accountUrl(this.t, `${path}/Notifications.json`),
          'notifications',
          params,
        ),
      recordings: (params?: ListCallRecordingsParams) =>
        listOf<Recording>(this.t, accountUrl(this.t, `${path}/Recordings.json`), 'recordings', params),
    });
  }

  /** Modifies a live call (redirect, hang up, mute); answers the call right after the change. */
  async update(sid: string, params: UpdateCallParams): Promise<Call> {
    const url = accountUrl(this.t, `/Calls/${segment('sid', sid)}.json`);
    return this.t.json({ method: 'POST', url, form: wirePairs(params) });
  }
}
