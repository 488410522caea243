/**
 * A small, strict-where-it-matters XML scanner for RCML documents. It builds an element tree
 * with source offsets in one pass. fast-xml-parser is not used on this path because its parser
 * accepts mismatched tags and gives no positions, and its validator rejects the bare `&` that
 * real RCML contains; a second validation pass would also halve throughput.
 *
 * Accepted: elements, attributes (single or double quoted), text, CDATA, comments, processing
 * instructions, an XML declaration at the start. Refused with an error: DOCTYPE (never
 * resolved), mismatched or unclosed tags, duplicate attributes, unquoted attributes, `<` in an
 * attribute value, `]]>` in text, `--` in a comment, a processing instruction without a target
 * or named `xml` after the start, text or a second element outside the root, an element with
 * more than {@link MAX_ATTRIBUTES} attributes. Every path is linear in the document's length
 * (a property test, test/rcml/xml/linear.test.ts, holds it to that).
 * A differential property test (test/rcml/xml/differential.test.ts) holds this to saxes and
 * fast-xml-parser's validator.
 */
import { decodeAttribute, decodeText, normalizeLineEnds } from './entities.js';

export interface XmlAttribute {
  name: string;
  value: string;
  /** Offset of the attribute name in the source. */
  offset: number;
}

export interface XmlElement {
  name: string;
  /** Offset of the `<` that opens the element. */
  offset: number;
  attributes: XmlAttribute[];
  children: XmlElement[];
  /** Concatenated text and CDATA directly inside the element, entities decoded. */
  text: string;
}

export type ScanResult =
  | { ok: true; root: XmlElement }
  | {
      ok: false;
      code: 'xml.malformed' | 'rcml.dtd' | 'rcml.too-many-attributes';
      message: string;
      offset: number;
    };

/**
 * Most attributes one element may carry. RCML verbs define at most about twenty; the cap keeps
 * a hostile document from making one element arbitrarily expensive.
 */
export const MAX_ATTRIBUTES = 100;

type Failure = Extract<ScanResult, { ok: false }>;

const fail = (message: string, offset: number, code: Failure['code'] = 'xml.malformed'): Failure => ({
  ok: false,
  code,
  message,
  offset,
});

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58 || c >= 0x80;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;
}

function isBlank(src: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(src.charCodeAt(i))) return false;
  return true;
}

/** End of the name starting at `from` (exclusive), or `from` when no name starts there. */
function nameEnd(src: string, from: number): number {
  if (!isNameStart(src.charCodeAt(from))) return from;
  let i = from + 1;
  while (i < src.length && isNameChar(src.charCodeAt(i))) i++;
  return i;
}

/** Scans `src` into an element tree. Never throws. */
export function scanXml(src: string): ScanResult {
  const n = src.length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const start = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  let i = start;
  while (i < n) {
    const lt = src.indexOf('<', i);
    const end = lt === -1 ? n : lt;
    if (end > i) {
      const top = stack[stack.length - 1];
      if (top) {
        const raw = src.slice(i, end);
        const cdataEnd = raw.indexOf(']]>');
        if (cdataEnd !== -1) return fail('"]]>" is not allowed in text', i + cdataEnd);
        top.text += decodeText(raw);
      } else if (!isBlank(src, i, end)) {
        return fail(root ? 'text after the root element' : 'text before the root element', i);
      }
    }
    if (lt === -1) break;
    const c = src.charCodeAt(lt + 1);
    if (c === 47 /* / */) {
      const close = src.indexOf('>', lt + 2);
      if (close === -1) return fail('unterminated closing tag', lt);
      const nameStop = nameEnd(src, lt + 2);
      const name = src.slice(lt + 2, nameStop);
      if (!name || !isBlank(src, nameStop, close)) return fail('malformed closing tag', lt);
      const top = stack.pop();
      if (!top) return fail(`closing tag </${name}> without an opening tag`, lt);
      if (top.name !== name) return fail(`expected </${top.name}> but found </${name}>`, lt);
      i = close + 1;
    } else if (c === 33 /* ! */) {
      if (src.startsWith('<!--', lt)) {
        const close = src.indexOf('-->', lt + 4);
        if (close === -1) return fail('unterminated comment', lt);
        const hyphens = src.indexOf('--', lt + 4);
        if (hyphens < close) return fail('"--" is not allowed in a comment', hyphens);
        i = close + 3;
      } else if (src.startsWith('<![CDATA[', lt)) {
        const top = stack[stack.length - 1];
        if (!top) return fail('CDATA outside the root element', lt);
        const close = src.indexOf(']]>', lt + 9);
        if (close === -1) return fail('unterminated CDATA section', lt);
        top.text += normalizeLineEnds(src.slice(lt + 9, close));
        i = close + 3;
      } else if (src.slice(lt + 2, lt + 9).toUpperCase() === 'DOCTYPE') {
        return fail('DOCTYPE is not allowed in RCML (DTDs and entities are never resolved)', lt, 'rcml.dtd');
      } else {
        return fail('unexpected "<!"', lt);
      }
    } else if (c === 63 /* ? */) {
      const pi = scanProcessingInstruction(src, lt, start);
      if (typeof pi !== 'number') return pi;
      i = pi;
    } else {
      if (root && stack.length === 0) return fail('a second root element is not allowed', lt);
      const tag = scanStartTag(src, lt);
      if (!tag.ok) return tag;
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(tag.element);
      else root = tag.element;
      if (!tag.selfClosing) stack.push(tag.element);
      i = tag.next;
    }
  }
  const open = stack[stack.length - 1];
  if (open) return fail(`element <${open.name}> is not closed`, open.offset);
  if (!root) return fail(isBlank(src, 0, n) ? 'the document is empty' : 'no root element', 0);
  return { ok: true, root };
}

/**
 * Skips the processing instruction at `lt`, returning the offset after its `?>`. Its target
 * must be a name, and one spelt `xml` in any case is the XML declaration, allowed only at the
 * start of the document (`start`, after a byte order mark).
 */
function scanProcessingInstruction(src: string, lt: number, start: number): number | Failure {
  const close = src.indexOf('?>', lt + 2);
  if (close === -1) return fail('unterminated processing instruction', lt);
  const targetEnd = nameEnd(src, lt + 2);
  if (targetEnd === lt + 2) return fail('a processing instruction needs a target name', lt);
  if (targetEnd !== close && !isSpace(src.charCodeAt(targetEnd))) {
    return fail('malformed processing instruction target', targetEnd);
  }
  const target = src.slice(lt + 2, targetEnd);
  if (target.length === 3 && target.toLowerCase() === 'xml') {
    if (target !== 'xml') return fail(`reserved processing instruction target "${target}"`, lt);
    if (lt !== start) return fail('the XML declaration is only allowed at the start of the document', lt);
  }
  return close + 2;
}

type StartTag = { ok: true; element: XmlElement; selfClosing: boolean; next: number } | Failure;

function scanStartTag(src: string, lt: number): StartTag {
  const n = src.length;
  const stop = nameEnd(src, lt + 1);
  if (stop === lt + 1) return fail('invalid element name', lt + 1);
  const element: XmlElement = {
    name: src.slice(lt + 1, stop),
    offset: lt,
    attributes: [],
    children: [],
    text: '',
  };
  let j = stop;
  // Names seen so far: a duplicate is found in constant time, not by scanning the list.
  const seen = new Set<string>();
  for (;;) {
    const before = j;
    while (j < n && isSpace(src.charCodeAt(j))) j++;
    if (j >= n) return fail(`unterminated tag <${element.name}>`, lt);
    const c = src.charCodeAt(j);
    if (c === 62 /* > */) return { ok: true, element, selfClosing: false, next: j + 1 };
    if (c === 47 /* / */) {
      if (src.charCodeAt(j + 1) !== 62) return fail(`expected "/>" in <${element.name}>`, j);
      return { ok: true, element, selfClosing: true, next: j + 2 };
    }
    if (j === before) return fail(`expected whitespace before an attribute in <${element.name}>`, j);
    const attrStop = nameEnd(src, j);
    if (attrStop === j) return fail(`unexpected character "${src[j]}" in <${element.name}>`, j);
    const name = src.slice(j, attrStop);
    const attrOffset = j;
    j = attrStop;
    while (j < n && isSpace(src.charCodeAt(j))) j++;
    if (src.charCodeAt(j) !== 61 /* = */) return fail(`attribute "${name}" has no value`, attrOffset);
    j++;
    while (j < n && isSpace(src.charCodeAt(j))) j++;
    const quote = src.charCodeAt(j);
    if (quote !== 34 && quote !== 39) return fail(`value of attribute "${name}" must be quoted`, j);
    const close = src.indexOf(quote === 34 ? '"' : "'", j + 1);
    if (close === -1) return fail(`unterminated value of attribute "${name}"`, j);
    const raw = src.slice(j + 1, close);
    const bad = raw.indexOf('<');
    if (bad !== -1) return fail(`"<" is not allowed in the value of attribute "${name}"`, j + 1 + bad);
    if (seen.has(name)) return fail(`duplicate attribute "${name}" in <${element.name}>`, attrOffset);
    if (seen.size === MAX_ATTRIBUTES) {
      return fail(
        `<${element.name}> has more than ${MAX_ATTRIBUTES} attributes`,
        attrOffset,
        'rcml.too-many-attributes',
      );
    }
    seen.add(name);
    element.attributes.push({ name, value: decodeAttribute(raw), offset: attrOffset });
    j = close + 1;
  }
}
