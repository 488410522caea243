import { badParameter } from './errors.js';

const DAY_MS = 86_400_000;
/** First millisecond of year 10000: beyond it both formats change shape, so `Date` formats them. */
const FAST_END = 253_402_300_800_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const PAD2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** Per-day prefixes (`Tue, 05 Mar 2024 `, `2024-03-05T`): lists show few distinct days. */
const dayPrefixes = new Map<number, readonly [rfc: string, iso: string]>();
const MAX_DAYS = 4096;

function prefixesOf(day: number): readonly [string, string] {
  let p = dayPrefixes.get(day);
  if (!p) {
    const d = new Date(day * DAY_MS);
    const y = String(d.getUTCFullYear()).padStart(4, '0');
    const m = d.getUTCMonth();
    const dd = PAD2[d.getUTCDate()];
    p = [`${WEEKDAYS[d.getUTCDay()]}, ${dd} ${MONTHS[m]} ${y} `, `${y}-${PAD2[m + 1]}-${dd}T`];
    if (dayPrefixes.size >= MAX_DAYS) dayPrefixes.clear();
    dayPrefixes.set(day, p);
  }
  return p;
}

const fast = (ms: number) => Number.isInteger(ms) && ms >= 0 && ms < FAST_END;

/**
 * RFC 2822 date in UTC, e.g. `Tue, 05 Mar 2024 12:34:56 +0000` (Call, Recording records).
 * Same text as `Date#toUTCString` with `+0000` for `GMT`, built from cached day prefixes.
 */
export function rfc2822(ms: number): string {
  if (!fast(ms)) return new Date(ms).toUTCString().replace(/GMT$/, '+0000');
  const day = Math.floor(ms / DAY_MS);
  const s = Math.floor((ms - day * DAY_MS) / 1000);
  return `${prefixesOf(day)[0]}${PAD2[Math.floor(s / 3600)]}:${PAD2[Math.floor(s / 60) % 60]}:${PAD2[s % 60]} +0000`;
}

/** ISO 8601 with milliseconds and `Z` (call start/end, gather dates); as `Date#toISOString`. */
export function iso8601(ms: number): string {
  if (!fast(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  const t = ms - day * DAY_MS;
  const s = Math.floor(t / 1000);
  return `${prefixesOf(day)[1]}${PAD2[Math.floor(s / 3600)]}:${PAD2[Math.floor(s / 60) % 60]}:${PAD2[s % 60]}.${PAD3[t % 1000]}Z`;
}

/** A parsed date filter: the first and last millisecond it names. */
export interface DateRange {
  first: number;
  last: number;
}

const DATE_FILTER = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * What a date without a time stands for: `day`, its whole day (a single-value filter such as
 * Gathers' `DateCreated`); `midnight`, the instant `T00:00:00` (the `StartTime`/`EndTime`
 * bounds, where the platform's API makes a date alone its midnight).
 */
export type DateOnly = 'day' | 'midnight';

/**
 * Parses a filter value `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS`, read as UTC. A date-time names
 * its whole second; a date its whole day, or with `dateOnly: 'midnight'` the second starting
 * it. Both ends are included. Anything else (including impossible dates such as 2024-02-30)
 * is a 400 naming the parameter.
 */
export function parseDateFilter(parameter: string, value: string, dateOnly: DateOnly = 'day'): DateRange {
  const m = DATE_FILTER.exec(value);
  if (!m) {
    throw badParameter(
      parameter,
      `expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC), got ${JSON.stringify(value)}`,
    );
  }
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1).map((p) => p ?? '0');
  const first = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const back = new Date(first);
  if (
    back.getUTCFullYear() !== +y ||
    back.getUTCMonth() !== +mo - 1 ||
    back.getUTCDate() !== +d ||
    back.getUTCHours() !== +h ||
    back.getUTCMinutes() !== +mi ||
    back.getUTCSeconds() !== +s
  ) {
    throw badParameter(parameter, `not a valid date: ${JSON.stringify(value)}`);
  }
  const span = m[4] === undefined && dateOnly === 'day' ? 86_400_000 : 1000;
  return { first, last: first + span - 1 };
}

/**
 * The `StartTime` and `EndTime` bounds of a list query, both included; a date alone is its
 * midnight, as in the platform's API. A bound not given is undefined.
 */
export function timeBounds(query: Record<string, string>): { from?: number; to?: number } {
  return {
    from:
      query.StartTime === undefined
        ? undefined
        : parseDateFilter('StartTime', query.StartTime, 'midnight').first,
    to: query.EndTime === undefined ? undefined : parseDateFilter('EndTime', query.EndTime, 'midnight').last,
  };
}
