/**
 * Schemas shared by every area: the error body and the paging envelope of `{api_root}` lists.
 * A schema with `.meta({ id })` becomes a named component of the document (`#/components/schemas/<id>`).
 */
import { z } from 'zod';

/** The error body of the platform (`src/api/http/errors.ts`); on `.xml` paths the same as `<RestException>`. */
export const ErrorBody = z
  .object({
    code: z.number().int().describe('Numeric code, listed in docs/errors.md'),
    message: z.string(),
    more_info: z.string().describe('Where the code is described'),
    status: z.number().int().describe('The HTTP status'),
    parameter: z.string().optional().describe('The request parameter at fault'),
    kind: z.string().describe('Short name of the error (`invalid-parameter`, `not-found`...)'),
  })
  .meta({ id: 'Error', description: 'An error answer.' });

const link = z
  .string()
  .describe('A path with the query of the request; the string `null` when there is no such page');

/**
 * The envelope of `{api_root}` lists, beside the list itself (named after the resource:
 * `calls`, `recordings`...). Positions are zero-based.
 */
export const PageEnvelope = z
  .looseObject({
    page: z.number().int().describe('The page asked for (`Page`)'),
    num_pages: z.number().int(),
    page_size: z.number().int().describe('Items per page actually used (`PageSize`, at most 1000)'),
    total: z.number().int().describe('Items matching, capped at `Limit`'),
    limit: z.number().int().optional().describe('The `Limit` used (Calls and Recordings lists only)'),
    start: z.string().describe('Position of the first item, as text'),
    end: z.string().describe('Position of the last item, as text (equal to `start` on an empty page)'),
    uri: z.string(),
    first_page_uri: z.string(),
    previous_page_uri: link,
    next_page_uri: link.describe('Carries `AfterSid`, the last sid of this page; `null` on the last page'),
    last_page_uri: z.string(),
  })
  .meta({ id: 'PageEnvelope', description: 'Paging fields of a list answer.' });

/**
 * A list answer: the envelope and the items under `key`, as the component `id`. No other
 * field is allowed (`unevaluatedProperties`, which sees through the join).
 */
export function pageOf<T extends z.ZodType>(id: string, key: string, item: T) {
  return z
    .intersection(PageEnvelope, z.looseObject({ [key]: z.array(item) }))
    .meta({ id, unevaluatedProperties: false });
}

/** Path parameter of a record sid. */
export const sidParam = (prefix: string) =>
  z.string().describe(`A sid (\`${prefix}\` and 32 hexadecimal digits)`);
