import { type Lazy, lazy } from '../lazy.js';
import type { PagingOptions, RecordList } from '../paging.js';
import type { Transport } from '../transport.js';
import type { ListRecordingsQuery, Recording } from '../types.js';
import type { CamelCased } from '../wire.js';
import { accountUrl, listOf, segment } from './base.js';

export type ListRecordingsParams = CamelCased<ListRecordingsQuery> & PagingOptions;

/** A recording by sid: `await` it for the record, or download or delete it directly. */
export type RecordingHandle = Lazy<
  Recording,
  {
    readonly sid: string;
    /** The audio (`audio/wav`, the bytes of the `.wav` file). */
    wav(): Promise<Uint8Array>;
    /** Deletes the recording and its audio. */
    delete(): Promise<void>;
  }
>;

/** `{api_root}/Accounts/{AccountSid}/Recordings`. */
export class Recordings {
  constructor(private readonly t: Transport) {}

  list(params?: ListRecordingsParams): RecordList<Recording> {
    return listOf(this.t, accountUrl(this.t, '/Recordings.json'), 'recordings', params);
  }

  get(sid: string): RecordingHandle {
    const path = `/Recordings/${segment('sid', sid)}`;
    return lazy(() => this.t.json<Recording>({ method: 'GET', url: accountUrl(this.t, `${path}.json`) }), {
      sid,
      wav: () => this.t.bytes({ method: 'GET', url: accountUrl(this.t, `${path}.wav`) }),
      delete: () => this.delete(sid),
    });
  }

  async delete(sid: string): Promise<void> {
    await this.t.json({
      method: 'DELETE',
      url: accountUrl(this.t, `/Recordings/${segment('sid', sid)}.json`),
    });
  }
}
