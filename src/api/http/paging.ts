import { badParameter } from './errors.js';
import type { ListDocument, Representation, Scalar } from './format.js';

/** Paging limits of `{api_root}` lists. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 1_000_000;

/**
 * Paging read from a query: zero-based page, items per page, cap on total items, and the sid
 * the page starts after (the next link's `AfterSid`), which wins over `page` when it names a
 * record of the list.
 */
export interface Paging {
  page: number;
  pageSize: number;
  limit: number;
  afterSid?: string;
}

/** A non-negative decimal integer parameter, bounded; 400 naming it otherwise. */
export function intParam(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw badParameter(name, `expected an integer, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw badParameter(name, `must be between ${min} and ${max}, got ${raw}`);
  return n;
}

/** Reads `Page`, `PageSize`, `Limit` and `AfterSid` (letters and digits, else 400). */
export function parsePaging(query: Record<string, string>): Paging {
  const afterSid = query.AfterSid;
  if (afterSid !== undefined && !/^[A-Za-z0-9]{1,64}$/.test(afterSid)) {
    throw badParameter('AfterSid', `expected a record sid, got ${JSON.stringify(afterSid)}`);
  }
  return {
    page: intParam('Page', query.Page, 0, 0, 1_000_000_000),
    // Above the maximum, the maximum (as Twilio clamps), not a 400.
    pageSize: Math.min(
      intParam('PageSize', query.PageSize, DEFAULT_PAGE_SIZE, 1, Number.MAX_SAFE_INTEGER),
      MAX_PAGE_SIZE,
    ),
    limit: intParam('Limit', query.Limit, DEFAULT_LIMIT, 1, MAX_LIMIT),
    afterSid,
  };
}

/**
 * Offset and count to fetch for a page, the total being capped by `limit`. With `afterSid`
 * the store finds the offset; {@link capItems} then applies the cap.
 */
export function windowOf(p: Paging): { offset: number; limit: number; afterSid?: string } {
  const offset = p.page * p.pageSize;
  if (p.afterSid !== undefined) return { offset, limit: Math.min(p.pageSize, p.limit), afterSid: p.afterSid };
  return { offset, limit: Math.max(0, Math.min(p.pageSize, p.limit - offset)) };
}

/** The items of a page starting at `offset` that fall within the `Limit` cap. */
function capItems<T>(items: T[], offset: number, p: Paging): T[] {
  const room = Math.max(0, p.limit - offset);
  return items.length > room ? items.slice(0, room) : items;
}

const PAGING_KEYS = new Set(['Page', 'PageSize', 'AfterSid']);

/** Builds the platform's list envelope: counts, positions and paging links. */
export function listDocument<T = Representation>(args: {
  /** Request path, used for every paging link. */
  path: string;
  query: Record<string, string>;
  paging: Paging;
  /** Items matching, before the `Limit` cap. */
  matched: number;
  /** Position of the first item (the store's `Page.offset`); default `page * pageSize`. */
  offset?: number;
  items: T[];
  lastSid: string | undefined;
  names: ListDocument['names'];
  withLimit: boolean;
}): ListDocument<T> {
  const { paging, items } = args;
  const total = Math.min(args.matched, paging.limit);
  const numPages = Math.ceil(total / paging.pageSize);
  const lastPage = Math.max(numPages - 1, 0);
  const start = args.offset ?? paging.page * paging.pageSize;
  const end = items.length > 0 ? start + items.length - 1 : start;
  // The filters are encoded once; each link appends its own paging parameters, as
  // `URLSearchParams#set` would (the paging names were taken out first).
  const filters = new URLSearchParams(
    Object.entries(args.query).filter(([k]) => !PAGING_KEYS.has(k)),
  ).toString();
  const prefix = `${args.path}?${filters === '' ? '' : `${filters}&`}`;
  const link = (page: number, afterSid?: string) =>
    `${prefix}Page=${page}&PageSize=${paging.pageSize}` +
    (afterSid ? `&${new URLSearchParams([['AfterSid', afterSid]]).toString()}` : '');
  const envelope: Array<readonly [string, string, Scalar]> = [
    ['page', 'page', paging.page],
    ['num_pages', 'numpages', numPages],
    ['page_size', 'pagesize', paging.pageSize],
    ['total', 'total', total],
  ];
  if (args.withLimit) envelope.push(['limit', 'limit', paging.limit]);
  envelope.push(
    ['start', 'start', String(start)],
    ['end', 'end', String(end)],
    ['uri', 'uri', link(paging.page)],
    ['first_page_uri', 'firstpageuri', link(0)],
    [
      'previous_page_uri',
      'previouspageuri',
      paging.page > 0 ? link(Math.min(paging.page - 1, lastPage)) : 'null',
    ],
    ['next_page_uri', 'nextpageuri', paging.page < lastPage ? link(paging.page + 1, args.lastSid) : 'null'],
    ['last_page_uri', 'lastpageuri', link(lastPage)],
  );
  return { envelope, names: args.names, items };
}

/**
 * The list envelope of one page a store answered (`items`, `total` matched, `offset` of the
 * first): the items within the `Limit` cap, each rendered with `rep`.
 */
export function pageDocument<R extends { sid: string }, T>(args: {
  path: string;
  query: Record<string, string>;
  paging: Paging;
  page: { items: R[]; total: number; offset: number };
  rep: (record: R) => T;
  names: ListDocument['names'];
  withLimit: boolean;
}): ListDocument<T> {
  const { page, paging } = args;
  const items = capItems(page.items, page.offset, paging);
  return listDocument({
    path: args.path,
    query: args.query,
    paging,
    matched: page.total,
    offset: page.offset,
    items: items.map(args.rep),
    lastSid: items.at(-1)?.sid,
    names: args.names,
    withLimit: args.withLimit,
  });
}
