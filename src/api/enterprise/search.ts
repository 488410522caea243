import type { SearchQuery, SearchSort } from '../../store/enterprise/types.js';
import type { Page } from '../../store/types.js';
import { parseDateFilter } from '../http/dates.js';
import { ApiError } from '../http/errors.js';
import { invalidParameter } from './errors.js';

/** The platform's search defaults, and the largest page the API serves. */
export const DEFAULT_SEARCH_PAGE_SIZE = 10;
export const MAX_SEARCH_PAGE_SIZE = 1000;

/** Paging, order and creation-time bounds of a search request. */
export interface SearchParams {
  page: number;
  pageSize: number;
  sort?: SearchQuery['sort'];
  createdFrom?: number;
  createdTo?: number;
}

function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number) {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw invalidParameter(name, `expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`, {
      parameter: name,
      value: raw,
    });
  }
  return Number(raw);
}

function dateBound(name: string, raw: string | undefined, end: 'first' | 'last'): number | undefined {
  if (raw === undefined) return undefined;
  try {
    return parseDateFilter(name, raw, 'midnight')[end];
  } catch (err) {
    if (err instanceof ApiError)
      throw invalidParameter(name, err.message.replace(/^\w+: /, ''), { parameter: name, value: raw });
    throw err;
  }
}

/**
 * Reads `page` (default 0), `pageSize` (default 10, at most 1000), `SortBy`
 * (`<attribute>:<asc|desc>`, also spelt `sortBy`) against the attributes a search allows, and
 * `startTime`/`endTime` (creation time, `YYYY-MM-DD` = its midnight or `YYYY-MM-DDTHH:MM:SS`,
 * UTC, both included: a date-time covers its whole second). Bad values are a 400 naming them.
 */
export function parseSearchParams(
  query: Record<string, string>,
  sorts: Readonly<Record<string, SearchSort>>,
): SearchParams {
  const params: SearchParams = {
    page: wholeNumber('page', query.page, 0, 0, 1_000_000_000),
    pageSize: wholeNumber('pageSize', query.pageSize, DEFAULT_SEARCH_PAGE_SIZE, 1, MAX_SEARCH_PAGE_SIZE),
    createdFrom: dateBound('startTime', query.startTime, 'first'),
    createdTo: dateBound('endTime', query.endTime, 'last'),
  };
  const sortName = query.SortBy !== undefined ? 'SortBy' : 'sortBy';
  const rawSort = query.SortBy ?? query.sortBy;
  if (rawSort !== undefined) {
    const [attr, dir = 'asc', ...rest] = rawSort.split(':');
    if (!Object.hasOwn(sorts, attr) || rest.length > 0 || (dir !== 'asc' && dir !== 'desc')) {
      throw invalidParameter(
        sortName,
        `expected <attribute>:<asc|desc> with attribute one of ${Object.keys(sorts).join(', ')}, got ${JSON.stringify(rawSort)}`,
        { parameter: sortName, value: rawSort },
      );
    }
    params.sort = { by: sorts[attr], order: dir };
  }
  return params;
}

/** The `offset`/`limit` window and bounds of a store query for these parameters. */
export function windowOf(
  p: SearchParams,
): Pick<SearchQuery, 'offset' | 'limit' | 'sort' | 'createdFrom' | 'createdTo'> {
  return {
    offset: p.page * p.pageSize,
    limit: p.pageSize,
    sort: p.sort,
    createdFrom: p.createdFrom,
    createdTo: p.createdTo,
  };
}

const PAGING = new Set(['page', 'pageSize']);

/**
 * `data` of a search answer: `result`, `pageSize`, `total`, `page`, `numPages`, `start`, `end`
 * (positions of the first and last record; both `start` on an empty page), and `uri`,
 * `firstPageUri`, `nextPageUri` (relative to `{base_url}`, keeping the filters; `nextPageUri`
 * is null on the last page).
 */
export function searchData<R, T>(args: {
  /** Path of the search relative to `{base_url}`. */
  path: string;
  query: Record<string, string>;
  params: SearchParams;
  page: Page<R>;
  render: (record: R) => T;
}): Record<string, unknown> {
  const { params, page } = args;
  const numPages = Math.ceil(page.total / params.pageSize);
  const start = params.page * params.pageSize;
  const filters = new URLSearchParams(Object.entries(args.query).filter(([k]) => !PAGING.has(k))).toString();
  const link = (n: number) =>
    `${args.path}?${filters === '' ? '' : `${filters}&`}page=${n}&pageSize=${params.pageSize}`;
  return {
    result: page.items.map(args.render),
    pageSize: params.pageSize,
    total: page.total,
    page: params.page,
    numPages,
    start,
    end: page.items.length > 0 ? start + page.items.length - 1 : start,
    uri: link(params.page),
    firstPageUri: link(0),
    nextPageUri: params.page + 1 < numPages ? link(params.page + 1) : null,
  };
}
