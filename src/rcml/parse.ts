import { ReadContext } from './context.js';
import type { ParseOptions, ParseResult, RcmlDocument, UnknownVerb, Verb } from './model.js';
import { isKnownElement } from './names.js';
import { reportMisplaced } from './read.js';
import { VERB_READERS } from './verbs/registry.js';
import { scanXml, type XmlElement } from './xml/scan.js';

/** Default largest accepted document: 1 MiB of UTF-8. */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * Parses and validates an RCML document. Never throws: problems come back as diagnostics
 * with line:column. `ok` is false when any diagnostic is an error; warnings leave the document
 * usable (unknown verbs are kept as `Unknown` and skipped at run time, invalid attribute values
 * are dropped so the verb's default applies). Documents the platform runs run here too, with
 * warnings: any root element (a root that is a verb is the whole document), verbs nested where
 * they do not belong (skipped), an empty Play, Dial, Redirect or Sms.
 */
export function parseRcml(xml: string, options: ParseOptions = {}): ParseResult {
  try {
    return parseUnchecked(xml, options);
  } catch (error) {
    // Defensive: a bug here must not take down the caller's call flow.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, diagnostics: [failure('rcml.internal', `internal parser error: ${message}`)] };
  }
}

function failure(code: string, message: string, line = 1, column = 1) {
  return { code, severity: 'error' as const, message, line, column };
}

function parseUnchecked(xml: string, options: ParseOptions): ParseResult {
  if (typeof xml !== 'string') {
    return { ok: false, diagnostics: [failure('xml.malformed', `expected XML text, got ${typeof xml}`)] };
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  // A UTF-16 unit is at most 3 UTF-8 bytes: only measure when the length alone cannot decide.
  if (xml.length > maxBytes || (xml.length * 3 > maxBytes && Buffer.byteLength(xml, 'utf8') > maxBytes)) {
    return {
      ok: false,
      diagnostics: [failure('rcml.too-large', `document is larger than the limit of ${maxBytes} bytes`)],
    };
  }
  const ctx = new ReadContext(xml);
  const scanned = scanXml(xml);
  if (!scanned.ok) {
    ctx.error(scanned.code, scanned.message, scanned.offset);
    return { ok: false, diagnostics: ctx.diagnostics };
  }
  const root = scanned.root;
  if (root.name !== 'Response') return readOtherRoot(root, ctx);
  for (const attr of root.attributes) {
    ctx.warn(
      'rcml.unknown-attribute',
      `unknown attribute "${attr.name}" on <Response> (ignored)`,
      attr.offset,
      `Response@${attr.name}`,
    );
  }
  if (root.text.trim() !== '') {
    ctx.warn('rcml.unexpected-text', 'text directly inside <Response> is ignored', root.offset, 'Response');
  }
  return result({ verbs: readVerbs(root, ctx) }, ctx);
}

function result(document: RcmlDocument, ctx: ReadContext): ParseResult {
  // Readers report attributes, text and children in their own order: show them in source order.
  ctx.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
  const ok = !ctx.diagnostics.some((d) => d.severity === 'error');
  return ok ? { ok, document, diagnostics: ctx.diagnostics } : { ok, diagnostics: ctx.diagnostics };
}

/**
 * A root other than `<Response>` runs as the platform's Parser runs it (it walks every element
 * from the root and runs each verb): a root verb is the whole document, any other root (say
 * `<response>`) has its children read as verbs.
 */
function readOtherRoot(root: XmlElement, ctx: ReadContext): ParseResult {
  const read = Object.hasOwn(VERB_READERS, root.name) ? VERB_READERS[root.name] : undefined;
  if (read) {
    ctx.warn(
      'rcml.root',
      `the root element should be <Response>: this document is the one verb <${root.name}>`,
      root.offset,
      root.name,
    );
    return result({ verbs: [read(root, ctx)] }, ctx);
  }
  ctx.warn(
    'rcml.root',
    `the root element should be <Response>, not <${root.name}>: its children run as verbs`,
    root.offset,
    root.name,
  );
  return result({ verbs: readVerbs(root, ctx) }, ctx);
}

function readVerbs(root: XmlElement, ctx: ReadContext): Verb[] {
  const verbs: Verb[] = [];
  for (const el of root.children) {
    const read = Object.hasOwn(VERB_READERS, el.name) ? VERB_READERS[el.name] : undefined;
    if (read) {
      verbs.push(read(el, ctx));
    } else if (isKnownElement(el.name)) {
      // A noun or a nested Response at the top level: skipped.
      reportMisplaced(el, root, ctx, 'rcml.unknown-verb');
    } else {
      ctx.warn('rcml.unknown-verb', `unknown verb <${el.name}> (skipped at run time)`, el.offset, el.name);
      verbs.push(unknownVerb(el, ctx));
    }
  }
  return verbs;
}

function unknownVerb(el: XmlElement, ctx: ReadContext): UnknownVerb {
  return {
    verb: 'Unknown',
    name: el.name,
    attributes: Object.fromEntries(el.attributes.map((a) => [a.name, a.value])),
    text: el.text.trim(),
    pos: ctx.pos(el.offset),
  };
}
