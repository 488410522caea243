import type { PagingOptions, RecordList } from '../paging.js';
import type { Transport } from '../transport.js';
import type { DtmfGather, ListDtmfGathersQuery, ListSpeechGathersQuery, SpeechGather } from '../types.js';
import type { CamelCased } from '../wire.js';
import { accountUrl, listOf, segment } from './base.js';

export type ListDtmfGathersParams = CamelCased<ListDtmfGathersQuery> & PagingOptions;
export type ListSpeechGathersParams = CamelCased<ListSpeechGathersQuery> & PagingOptions;

/** One kind of gather records: `Gathers/DTMF` or `Gathers/Speech`. */
export class GatherRecords<T, Params extends PagingOptions> {
  constructor(
    private readonly t: Transport,
    private readonly kind: 'DTMF' | 'Speech',
  ) {}

  list(params?: Params): RecordList<T> {
    return listOf(this.t, accountUrl(this.t, `/Gathers/${this.kind}.json`), 'gathers', params);
  }

  async get(sid: string): Promise<T> {
    const url = accountUrl(this.t, `/Gathers/${this.kind}/${segment('sid', sid)}.json`);
    return this.t.json({ method: 'GET', url });
  }
}

/** `{api_root}/Accounts/{AccountSid}/Gathers`: what Gather verbs collected. */
export class Gathers {
  readonly dtmf: GatherRecords<DtmfGather, ListDtmfGathersParams>;
  readonly speech: GatherRecords<SpeechGather, ListSpeechGathersParams>;
  constructor(t: Transport) {
    this.dtmf = new GatherRecords(t, 'DTMF');
    this.speech = new GatherRecords(t, 'Speech');
  }
}
