import type { Context } from 'hono';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { ApiError } from './errors.js';

/** Response format chosen by the path suffix. */
export type Format = 'json' | 'xml';

/** A scalar value of a rendered field. */
export type Scalar = string | number | boolean;

/**
 * A record ready to render in either format: each field has its XML element name (the
 * the platform's attribute names) and its JSON name; a nested list of fields is an object.
 */
export type Representation = ReadonlyArray<
  readonly [xml: string, json: string, value: Scalar | Representation]
>;

/**
 * Splits a `.json` / `.xml` suffix off a path segment. A segment without a suffix renders as
 * `fallback`; any other suffix is left in the id (and then matches nothing).
 */
export function splitFormat(segment: string, fallback: Format): { id: string; format: Format } {
  if (segment.endsWith('.json')) return { id: segment.slice(0, -5), format: 'json' };
  if (segment.endsWith('.xml')) return { id: segment.slice(0, -4), format: 'xml' };
  return { id: segment, format: fallback };
}

/** Refuses XML for JSON-only resources. */
export function requireJson(format: Format, resource: string): void {
  if (format !== 'json')
    throw new ApiError(406, 'json-only', `${resource} are available as JSON only (.json)`);
}

export function toJson(rep: Representation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [, json, value] of rep)
    out[json] = Array.isArray(value) ? toJson(value as Representation) : value;
  return out;
}

function addXml(parent: XMLBuilder, name: string, rep: Representation): void {
  const el = parent.ele(name);
  for (const [xml, , value] of rep) {
    if (Array.isArray(value)) addXml(el, xml, value as Representation);
    else el.ele(xml).txt(String(value));
  }
}

/** Renders one record: JSON object, or `<RestcommResponse><Name>...</Name></RestcommResponse>`. */
export function renderOne(c: Context, format: Format, xmlName: string, rep: Representation): Response {
  if (format === 'json') return c.json(toJson(rep));
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('RestcommResponse');
  addXml(root, xmlName, rep);
  return c.body(root.end(), 200, { 'Content-Type': XML_TYPE });
}

/**
 * A rendered list: envelope fields (JSON name, XML attribute name, value) and the items, each a
 * {@link Representation} or, for JSON built straight from records, its JSON object.
 */
export interface ListDocument<T = Representation> {
  envelope: ReadonlyArray<readonly [json: string, xml: string, value: Scalar]>;
  /** JSON array name (`calls`) and XML element names (`Calls`, `Call`). */
  names: { json: string; xmlList: string; xmlItem: string };
  items: T[];
}

/** A response body and its media type, ready to send (or to keep). */
export interface RenderedBody {
  /** Text, or its UTF-8 bytes (kept bodies: the server then sends them without encoding). */
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string;
}

const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml; charset=utf-8';

/** The list as JSON text: the envelope's fields, then the items (JSON objects) as its list. */
export function jsonListText(doc: ListDocument<object>): string {
  const out: Record<string, unknown> = {};
  for (const [json, , value] of doc.envelope) out[json] = value;
  out[doc.names.json] = doc.items;
  return JSON.stringify(out);
}

/** The body of a list in either format. */
export function listBody(format: Format, doc: ListDocument): RenderedBody {
  if (format === 'json') {
    return {
      body: jsonListText({ ...doc, items: doc.items.map(toJson) }),
      contentType: JSON_TYPE,
    };
  }
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('RestcommResponse');
  const list = root.ele(doc.names.xmlList);
  for (const [, xml, value] of doc.envelope) list.att(xml, String(value));
  for (const item of doc.items) addXml(list, doc.names.xmlItem, item);
  return { body: root.end(), contentType: XML_TYPE };
}

/** Sends a rendered body with status 200. */
export function sendBody(c: Context, rendered: RenderedBody): Response {
  return c.body(rendered.body, 200, { 'Content-Type': rendered.contentType });
}

export function renderList(c: Context, format: Format, doc: ListDocument): Response {
  return sendBody(c, listBody(format, doc));
}
