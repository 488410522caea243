import type { Context } from 'hono';
import type { SortOrder } from '../../store/types.js';
import { ApiError, badParameter } from './errors.js';

/** Refuses a parameter that takes one value but was given several. */
export type RefuseRepeated = (name: string, values: readonly string[]) => Error;

const refuseRepeated: RefuseRepeated = (name, values) =>
  badParameter(
    name,
    `given ${values.length} times (${values.map((v) => JSON.stringify(v)).join(', ')}); expected once`,
  );

/**
 * Query parameters as a plain record. Every one takes a single value: a repeated name is a 400
 * naming it, instead of one of its values being kept silently.
 */
export function queryOf(c: Context, refuse: RefuseRepeated = refuseRepeated): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) throw refuse(name, values);
    out[name] = values[0];
  }
  return out;
}

/**
 * Pairs as fields, every value of a repeated name kept: joined with a space, so a list
 * parameter (`StatusCallbackEvent=initiated&StatusCallbackEvent=completed`, as SDKs send it)
 * reads the same as `StatusCallbackEvent=initiated completed`. A URL or number given twice then
 * fails its own validation instead of silently keeping one value.
 */
export function fieldsOf(pairs: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of pairs) out[k] = Object.hasOwn(out, k) ? `${out[k]} ${v}` : v;
  return out;
}

/**
 * Reads a request body as lists of values by name, every value of a repeated field kept in
 * order: form-encoded, or a JSON object whose lists of strings are lists.
 */
export async function readFieldLists(c: Context): Promise<Record<string, string[]>> {
  const type = c.req.header('Content-Type') ?? '';
  if (type.includes('application/json')) {
    const body = await readJsonObject(c);
    const out: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(body)) {
      out[k] = Array.isArray(v) && v.every((e) => typeof e === 'string') ? v : [jsonField(v)];
    }
    return out;
  }
  if (type === '' || type.includes('application/x-www-form-urlencoded')) {
    const out: Record<string, string[]> = {};
    for (const [k, v] of new URLSearchParams(await c.req.text())) {
      if (Object.hasOwn(out, k)) out[k].push(v);
      else out[k] = [v];
    }
    return out;
  }
  throw unsupportedType(type);
}

const unsupportedType = (type: string) =>
  new ApiError(415, 'unsupported-media-type', `expected a form-encoded body, got Content-Type ${type}`);

async function readJsonObject(c: Context): Promise<object> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, 'malformed-body', 'request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'malformed-body', 'request body must be a JSON object');
  }
  return body;
}

/** A JSON field as text: strings as they are, lists of strings joined by spaces. */
const jsonField = (v: unknown) =>
  typeof v === 'string'
    ? v
    : Array.isArray(v) && v.every((e) => typeof e === 'string')
      ? v.join(' ')
      : JSON.stringify(v);

/**
 * Reads a request body as flat string fields: form-encoded (the platform's format) or a JSON
 * object. Malformed bodies are a 400.
 */
export async function readFields(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('Content-Type') ?? '';
  if (type.includes('application/json')) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(await readJsonObject(c))) out[k] = jsonField(v);
    return out;
  }
  if (type === '' || type.includes('application/x-www-form-urlencoded')) {
    const text = await c.req.text();
    return fieldsOf(new URLSearchParams(text));
  }
  throw unsupportedType(type);
}

/**
 * Parses `SortBy` = `<attribute>:<asc|desc>` (direction optional, ascending by default) against
 * the attributes a list sorts on; 400 naming `SortBy` otherwise.
 */
export function parseSortBy<K extends string>(
  raw: string | undefined,
  attributes: Readonly<Record<string, K>>,
): { by: K; order: SortOrder } | undefined {
  if (raw === undefined) return undefined;
  const [attr, dir, ...rest] = raw.split(':');
  const by = Object.hasOwn(attributes, attr) ? attributes[attr] : undefined;
  if (!by || rest.length > 0) {
    throw badParameter(
      'SortBy',
      `expected <attribute>:<asc|desc> with attribute one of ${Object.keys(attributes).join(', ')}; got ${JSON.stringify(raw)}`,
    );
  }
  if (dir !== undefined && dir !== 'asc' && dir !== 'desc') {
    throw badParameter('SortBy', `direction must be asc or desc, got ${JSON.stringify(dir)}`);
  }
  return { by, order: dir ?? 'asc' };
}
