import type { PagingOptions, RecordList } from '../paging.js';
import type { Transport } from '../transport.js';
import type { Client, CreateClientForm, ListClientsQuery, UpdateClientForm } from '../types.js';
import { type CamelCased, wirePairs } from '../wire.js';
import { accountUrl, listOf, segment } from './base.js';

export type CreateClientParams = CamelCased<CreateClientForm>;
export type UpdateClientParams = CamelCased<UpdateClientForm>;
export type ListClientsParams = CamelCased<ListClientsQuery> & PagingOptions;

/**
 * `{api_root}/Accounts/{AccountSid}/Clients`: the SIP softphones of the account (`login` and
 * `password` register with `rcml serve --sip`; they are called as `client:<login>`). Answers
 * never carry the password.
 */
export class Clients {
  constructor(private readonly t: Transport) {}

  async create(params: CreateClientParams): Promise<Client> {
    return this.t.json({ method: 'POST', url: accountUrl(this.t, '/Clients.json'), form: wirePairs(params) });
  }

  list(params?: ListClientsParams): RecordList<Client> {
    return listOf(this.t, accountUrl(this.t, '/Clients.json'), 'clients', params);
  }

  async get(sid: string): Promise<Client> {
    return this.t.json({ method: 'GET', url: accountUrl(this.t, `/Clients/${segment('sid', sid)}.json`) });
  }

  async update(sid: string, params: UpdateClientParams): Promise<Client> {
    const url = accountUrl(this.t, `/Clients/${segment('sid', sid)}.json`);
    return this.t.json({ method: 'POST', url, form: wirePairs(params) });
  }

  async delete(sid: string): Promise<void> {
    await this.t.json({ method: 'DELETE', url: accountUrl(this.t, `/Clients/${segment('sid', sid)}.json`) });
  }
}
