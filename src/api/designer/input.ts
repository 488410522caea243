/** zod at the boundary: query strings and JSON bodies, every problem named by its field. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../http/errors.js';
import { queryOf } from '../http/params.js';

function problems(error: z.ZodError): { parameter: string; message: string } {
  const named = error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
  return { parameter: error.issues[0]?.path.join('.') || 'body', message: named.join('; ') };
}

/** Parses a value with a schema; a 400 naming every offending field otherwise. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { parameter, message } = problems(parsed.error);
  throw new ApiError(400, 'invalid-parameter', message, parameter);
}

/** The query string checked by a schema. */
export const parseQuery = <T extends z.ZodType>(c: Context, schema: T): z.infer<T> =>
  parseInput(schema, queryOf(c));

/** The body as JSON (any value); 400 when it is not JSON. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(
      400,
      'malformed-body',
      `request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The JSON body checked by a schema. */
export const parseJsonBody = async <T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> =>
  parseInput(schema, await readJson(c));
