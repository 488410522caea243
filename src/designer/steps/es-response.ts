/**
 * The external service's answer: parsed leniently as the platform's JSON reader does, numbers
 * kept as written, values picked by an extractor's access operations.
 */
import { isLosslessNumber, parse } from 'lossless-json';
import { RenderError } from '../context.js';
import type { ValueExtractor } from '../schema.js';

/** A parsed body: JSON values, numbers as their source text (`LosslessNumber`). */
export type EsValue = unknown;

// A bare word the platform's lenient reader takes as a string (`OK`), or a single-quoted one.
const BARE_WORD = /^[^/\\;#={}[\]:,\s"']+$/;
const SINGLE_QUOTED = /^'([^'\\]*)'$/;

/** Parses a response body; an empty body is `null`. Throws RenderError when it cannot. */
export function parseBody(text: string): EsValue {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  try {
    return parse(trimmed);
  } catch {
    if (BARE_WORD.test(trimmed)) return trimmed;
    const quoted = SINGLE_QUOTED.exec(trimmed);
    if (quoted) return quoted[1];
    throw new RenderError('designer.es-bad-response', 'the service response is not JSON');
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v);

function bad(message: string): never {
  throw new RenderError('designer.es-bad-response', message);
}

/**
 * Applies an extractor: `object`/`array` operations walk into the value, each `value` operation
 * sets the result to the current primitive's text. The result is '' until a `value` operation
 * runs. A missing property followed by another operation, a wrong type or an index out of
 * range throws RenderError (the response becomes a Hangup).
 */
export function extractValue(json: EsValue, extractor: ValueExtractor | undefined): string {
  if (!extractor) bad('no value extractor is configured');
  let element: unknown = json;
  let value = '';
  for (const op of extractor.accessOperations) {
    if (element === undefined) bad('the response has no such property or item');
    if (op.kind === 'object') {
      if (!isPlainObject(element)) bad('no JSON object found');
      if (op.action !== 'propertyNamed') bad(`unknown object access "${op.action ?? ''}"`);
      element = Object.hasOwn(element, op.property ?? '') ? element[op.property ?? ''] : undefined;
    } else if (op.kind === 'array') {
      if (!Array.isArray(element)) bad('no JSON array found');
      if (op.action !== 'itemAtPosition') bad(`unknown array access "${op.action ?? ''}"`);
      const at = op.position;
      if (at === undefined || at < 0 || at >= element.length)
        bad(`no array item at position ${at ?? '(none)'}`);
      element = element[at];
    } else if (op.kind === 'value') {
      const primitive =
        typeof element === 'string' || typeof element === 'boolean' || isLosslessNumber(element);
      if (!primitive) bad('no primitive value found (maybe null returned?)');
      value = isLosslessNumber(element) ? element.value : String(element);
    }
  }
  return value;
}
