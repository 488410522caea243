import type { PagingOptions, RecordList } from '../paging.js';
import type { Transport } from '../transport.js';
import type { DtmfGather, ListGathersQuery, SpeechGather } from '../types.js';
import type { CamelCased } from '../wire.js';
import { accountUrl, listOf, segment } from './base.js';

export type ListGathersParams = CamelCased<ListGathersQuery> & PagingOptions;

/** One kind of gather records: `Gathers/DTMF` or `Gathers/Speech`. */
export class GatherRecords<T> {
  constructor(
    private readonly t: Transport,
    private readonly kind: 'DTMF' | 'Speech',
  ) {}

  list(params?: ListGathersParams): RecordList<T> {
    return listOf(this.t, accountUrl(this.t, `/Gathers/${this.kind}.json`), 'gathers', params);
  }

  async get(sid: string): Promise<T> {
    const url = accountUrl(this.t, `/Gathers/${this.kind}/${segment('sid', sid)}.json`);
    return this.t.json({ method: 'GET', url });
  }
}

/** `{api_root}/Accounts/{AccountSid}/Gathers`: what Gather verbs collected. */
export class Gathers {
  readonly dtmf: GatherRecords<DtmfGather>;
  readonly speech: GatherRecords<SpeechGather>;
  constructor(t: Transport) {
    this.dtmf = new GatherRecords(t, 'DTMF');
    this.speech = new GatherRecords(t, 'Speech');
  }
}
