/**
 * Limits on the shape of form and JSON bodies, checked by one linear scan of the text before
 * anything parses it: parsing cost grows with the number of fields and with nesting, which the
 * byte limit alone does not bound (a 1 MiB form holds 500,000 empty fields).
 */
import type { Context, Next } from 'hono';
import { ApiError } from './errors.js';

/** Most fields (form pairs, JSON object members and array elements) a body may hold. */
export const MAX_BODY_FIELDS = 1000;
/** Deepest nesting of JSON objects and arrays. */
export const MAX_BODY_DEPTH = 32;

const tooMany = () =>
  new ApiError(413, 'body-too-large', `request body has more than ${MAX_BODY_FIELDS} fields`);

/** Counts a form's pairs; throws past the limit. */
export function checkFormShape(text: string): void {
  if (text === '') return;
  let fields = 1;
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
    if (++fields > MAX_BODY_FIELDS) throw tooMany();
  }
}

/** Counts a JSON text's members and elements and its depth; throws past either limit. */
export function checkJsonShape(text: string): void {
  const stack: number[] = [];
  let fields = 0;
  let inString = false;
  let openedArray = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09) continue;
    if (openedArray) {
      openedArray = false;
      if (ch !== 0x5d && ++fields > MAX_BODY_FIELDS) throw tooMany();
    }
    switch (ch) {
      case 0x22:
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        stack.push(ch);
        if (stack.length > MAX_BODY_DEPTH) {
          throw new ApiError(
            400,
            'malformed-body',
            `request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
          );
        }
        openedArray = ch === 0x5b;
        break;
      case 0x7d:
      case 0x5d:
        stack.pop();
        break;
      case 0x3a: // : an object member
        if (stack.at(-1) === 0x7b && ++fields > MAX_BODY_FIELDS) throw tooMany();
        break;
      case 0x2c: // , the next array element
        if (stack.at(-1) === 0x5b && ++fields > MAX_BODY_FIELDS) throw tooMany();
        break;
    }
  }
}

/**
 * Middleware: a form or JSON body past {@link MAX_BODY_FIELDS} fields is a 413, one nested
 * deeper than {@link MAX_BODY_DEPTH} a 400, before any handler parses it. The text read stays
 * cached for the handler.
 */
export async function limitBodyShape(c: Context, next: Next): Promise<void> {
  const type = (c.req.header('Content-Type') ?? '').toLowerCase();
  const json = type.includes('json');
  if (json || type === '' || type.includes('application/x-www-form-urlencoded')) {
    const text = await c.req.text();
    if (json) checkJsonShape(text);
    else checkFormShape(text);
  }
  await next();
}
