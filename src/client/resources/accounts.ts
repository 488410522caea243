import type { Transport } from '../transport.js';
import type { Account, Application, UpdateApplicationForm } from '../types.js';
import { type CamelCased, wirePairs } from '../wire.js';
import { accountUrl, segment } from './base.js';

/** `{api_root}/Accounts/{AccountSid}`: the authenticated account. */
export class Accounts {
  constructor(private readonly t: Transport) {}

  /** The client's account (another account's answers 403). */
  async get(sid: string = this.t.accountSid): Promise<Account> {
    return this.t.json({ method: 'GET', url: `${this.t.apiRoot}/Accounts/${segment('sid', sid)}.json` });
  }
}

export type UpdateApplicationParams = CamelCased<UpdateApplicationForm>;

/** `{api_root}/Accounts/{AccountSid}/Applications`. */
export class Applications {
  constructor(private readonly t: Transport) {}

  /** Renames an application (`friendlyName`, 1-256 characters). */
  async update(sid: string, params: UpdateApplicationParams): Promise<Application> {
    const url = accountUrl(this.t, `/Applications/${segment('sid', sid)}.json`);
    return this.t.json({ method: 'PUT', url, form: wirePairs(params) });
  }
}
