import type { Transport } from './transport.js';
import type { PageEnvelope } from './types.js';

/** One page of a list: its records and its envelope. */
export interface Page<T> {
  items: T[];
  envelope: PageEnvelope;
}

/** Paging of a list call. */
export interface PagingOptions {
  /** Records per request (1-1000; the API's default is 50). */
  pageSize?: number;
  /**
   * At most this many records in all (sent as the API's `Limit`, which also caps the
   * envelope's `total`; the API's default is 10,000).
   */
  limit?: number;
}

/** The API's bound on `Limit`. */
const MAX_LIMIT = 1_000_000;

/**
 * The records of a list, fetched page by page as they are iterated (`for await`), following
 * each page's `next_page_uri` until there is none or `limit` records were given.
 */
export interface RecordList<T> extends AsyncIterable<T> {
  /** The pages, each fetched when the previous one has been taken. */
  pages(): AsyncIterable<Page<T>>;
  /** Every record of the list (all pages) in one array. */
  toArray(): Promise<T[]>;
}

const noLink = (uri: string | null | undefined): uri is null | undefined =>
  uri === null || uri === undefined || uri === '' || uri === 'null';

function checkCount(name: string, value: number | undefined, max: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name}: expected an integer from 1 to ${max}, got ${value}`);
  }
}

/**
 * A {@link RecordList} of the list at `url` whose records are under `key` in each page. The
 * first request carries `query`; the next ones follow the API's links, which keep the filters.
 */
export function recordList<T>(
  transport: Transport,
  url: string,
  key: string,
  query: Array<[string, string]>,
  paging: PagingOptions = {},
): RecordList<T> {
  const { pageSize, limit } = paging;
  checkCount('pageSize', pageSize, 1000);
  checkCount('limit', limit, MAX_LIMIT);
  const first: Array<[string, string]> = [...query];
  // A small limit fits one page of its own size.
  const size = pageSize ?? (limit === undefined ? undefined : Math.min(limit, 1000));
  if (size !== undefined) first.push(['PageSize', String(size)]);
  if (limit !== undefined) first.push(['Limit', String(limit)]);

  async function* pages(): AsyncGenerator<Page<T>> {
    let remaining = limit ?? Number.POSITIVE_INFINITY;
    let next: string | undefined = url;
    let nextQuery: Array<[string, string]> | undefined = first;
    while (next !== undefined && remaining > 0) {
      const body: Record<string, unknown> = await transport.json({
        method: 'GET',
        url: next,
        query: nextQuery,
      });
      const items = body[key];
      if (!Array.isArray(items)) {
        throw new TypeError(`GET ${next}: expected a list under "${key}" in the answer`);
      }
      const envelope = body as unknown as PageEnvelope;
      const taken = items.length > remaining ? items.slice(0, remaining) : items;
      remaining -= taken.length;
      // The platform's last page says the string "null"; a JSON null is read the same.
      const link: string | null = envelope.next_page_uri;
      // An empty page ends the list even if a link says otherwise (no endless loop).
      next = noLink(link) || items.length === 0 ? undefined : link;
      nextQuery = undefined;
      yield { items: taken as T[], envelope };
    }
  }

  async function* records(): AsyncGenerator<T> {
    for await (const page of pages()) yield* page.items;
  }

  return {
    [Symbol.asyncIterator]: () => records(),
    pages,
    async toArray() {
      const all: T[] = [];
      for await (const record of records()) all.push(record);
      return all;
    },
  };
}
