import type { Context } from 'hono';
import type { z } from 'zod';
import { queryOf } from '../http/params.js';
import { invalidParameter } from './errors.js';

/**
 * The request body as an object: JSON (the areas' format) or form-encoded fields. A malformed
 * body is a 400 (`data` null: there is nothing to echo).
 */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('Content-Type') ?? '';
  if (type.includes('application/x-www-form-urlencoded')) {
    // A repeated field keeps every value (an array), which the schema then refuses by name.
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(await c.req.text())) {
      const had = out[k];
      out[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
    }
    return out;
  }
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidParameter('body', 'request body is not valid JSON', null);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidParameter('body', 'request body must be a JSON object', null);
  }
  return body as Record<string, unknown>;
}

/** Validates a body with a zod schema; the first problem is a 400 naming its field, echoing the body. */
/** The value at a path of a parsed body, or undefined. */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = body;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

export function parseBody<S extends z.ZodType>(schema: S, body: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  // zod leaves `input` out of its issues: whether the field is absent is read from the body.
  const message =
    issue.code === 'invalid_type' && valueAt(body, issue.path) === undefined ? 'is required' : issue.message;
  throw invalidParameter(field, message, body);
}

/** The query of an area's search: each parameter once; a repeated one is a 400 naming it. */
export const searchQuery = (c: Context): Record<string, string> =>
  queryOf(c, (name, values) =>
    invalidParameter(name, `given ${values.length} times; expected once`, { [name]: values }),
  );
