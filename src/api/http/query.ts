/**
 * Query parameters of `{api_root}` lists as zod schemas: what the routes declare (and so
 * validate and document). Each checks its value with the parser the handler uses, so a bad
 * value gets the same 400 and message whichever reads it first.
 */
import { z } from 'zod';
import { parseDateFilter } from './dates.js';
import { ApiError } from './errors.js';
import { DEFAULT_LIMIT, DEFAULT_PAGE_SIZE, MAX_LIMIT, MAX_PAGE_SIZE, parsePaging } from './paging.js';
import { parseSortBy } from './params.js';

/** The message of a parser's 400 without its `Name: ` prefix (the query check adds it back). */
function issueText(name: string, err: unknown): string {
  if (!(err instanceof ApiError)) throw err;
  return err.message.startsWith(`${name}: `) ? err.message.slice(name.length + 2) : err.message;
}

/**
 * A text parameter valid when `parse(value)` does not throw. `meta` documents it (`description`,
 * `pattern`, `enum`...).
 */
export function checkedText(
  name: string,
  parse: (value: string) => unknown,
  meta: { description: string; [key: string]: unknown },
) {
  return z
    .string()
    .superRefine((value, ctx) => {
      try {
        parse(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: issueText(name, err) });
      }
    })
    .meta(meta)
    .optional();
}

/** `Page`, `PageSize`, `Limit`, `AfterSid` of every paged list. */
export const pagingQuery = {
  AfterSid: checkedText('AfterSid', (v) => parsePaging({ AfterSid: v }), {
    description: 'Start right after this record (the next link carries it)',
    pattern: '^[A-Za-z0-9]{1,64}$',
  }),
  Page: checkedText('Page', (v) => parsePaging({ Page: v }), {
    description: 'Zero-based page number (default 0)',
    pattern: '^\\d+$',
  }),
  PageSize: checkedText('PageSize', (v) => parsePaging({ PageSize: v }), {
    description: `Items per page, at least 1 (default ${DEFAULT_PAGE_SIZE}; above ${MAX_PAGE_SIZE}, ${MAX_PAGE_SIZE})`,
    pattern: '^\\d+$',
  }),
  Limit: checkedText('Limit', (v) => parsePaging({ Limit: v }), {
    description: `Cap on the total (1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT})`,
    pattern: '^\\d+$',
  }),
};

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2})?$';

/** A date filter, `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS` (UTC). */
export const dateQuery = (name: string, description: string) =>
  checkedText(name, (v) => parseDateFilter(name, v), { description, pattern: DATE_PATTERN });

/** `SortBy` = `<attribute>:<asc|desc>` over the given attributes. */
export const sortByQuery = (attributes: Readonly<Record<string, string>>) =>
  checkedText('SortBy', (v) => parseSortBy(v, attributes), {
    description: `<attribute>[:asc|:desc], attribute one of ${Object.keys(attributes).join(', ')}`,
    pattern: `^(${Object.keys(attributes).join('|')})(:(asc|desc))?$`,
  });

/** A parameter among fixed values, with the platform's message for any other. */
export const oneOfQuery = (name: string, values: readonly string[], description: string) =>
  checkedText(
    name,
    (v) => {
      if (!values.includes(v)) {
        throw new ApiError(
          400,
          'invalid-parameter',
          `expected one of ${values.join(', ')}, got ${JSON.stringify(v)}`,
        );
      }
    },
    { description, enum: [...values] },
  );

/** A plain text filter. */
export const textQuery = (description: string) => z.string().meta({ description }).optional();
