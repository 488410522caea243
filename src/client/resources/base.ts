import { type PagingOptions, type RecordList, recordList } from '../paging.js';
import type { Transport } from '../transport.js';
import { wirePairs } from '../wire.js';

/** A sid (or other path segment) checked and encoded for a path. */
export function segment(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name}: expected a non-empty string, got ${JSON.stringify(value)}`);
  }
  return encodeURIComponent(value);
}

/** `{api_root}/Accounts/{AccountSid}` followed by `path`. */
export const accountUrl = (t: Transport, path: string) =>
  `${t.apiRoot}/Accounts/${encodeURIComponent(t.accountSid)}${path}`;

/** Splits list parameters into the API's filters and the client's paging options. */
export function listOf<T>(
  t: Transport,
  url: string,
  key: string,
  params: (PagingOptions & object) | undefined,
): RecordList<T> {
  const { pageSize, limit, ...filters } = (params ?? {}) as PagingOptions & Record<string, unknown>;
  return recordList<T>(t, url, key, wirePairs(filters), { pageSize, limit });
}
