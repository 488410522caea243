import type { PagingOptions, RecordList } from '../paging.js';
import type { Transport } from '../transport.js';
import type { ListNotificationsQuery, Notification } from '../types.js';
import type { CamelCased } from '../wire.js';
import { accountUrl, listOf, segment } from './base.js';

export type ListNotificationsParams = CamelCased<ListNotificationsQuery> & PagingOptions;

/** `{api_root}/Accounts/{AccountSid}/Notifications`: errors and warnings of calls, in creation order. */
export class Notifications {
  constructor(private readonly t: Transport) {}

  list(params?: ListNotificationsParams): RecordList<Notification> {
    return listOf(this.t, accountUrl(this.t, '/Notifications.json'), 'notifications', params);
  }

  async get(sid: string): Promise<Notification> {
    return this.t.json({
      method: 'GET',
      url: accountUrl(this.t, `/Notifications/${segment('sid', sid)}.json`),
    });
  }
}
