/**
 * Writes RCML documents as XML text.
 *
 * The output is what xmlbuilder2's DOM serialiser writes for the same element tree (same
 * declaration, two-space indentation, `<X/>` for empty elements, text-only elements on one line,
 * same escaping), written straight into a string: building a DOM per document caps a builder at
 * ~15k documents/s, and xmlbuilder2's callback writer (`createCB`) is slower still because it
 * creates a DOM fragment and copies a namespace map for every element.
 */
import type { Dial, DialNoun, NounVideo, RcmlDocument, UnknownVerb, Verb } from './model.js';

/** How `buildRcml` writes XML. */
export interface BuildOptions {
  /** Indent one element per line (default true). */
  pretty?: boolean;
}

/** Codes of {@link BuildError}. */
export type BuildErrorCode = 'invalid-name';

/** A document that cannot be written as XML, e.g. an unknown verb whose name is not an XML name. */
export class BuildError extends Error {
  override readonly name = 'BuildError';
  constructor(
    readonly code: BuildErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** Model fields that are structure or text, never written as attributes. */
const NOT_ATTRIBUTES: ReadonlySet<string> = new Set([
  'verb',
  'noun',
  'pos',
  'prompts',
  'nouns',
  'fromText',
  'text',
  'name',
  'attributes',
  'video',
]);

/** Field holding the element text, per verb or noun (default `text`). */
const TEXT_FIELD: { readonly [element: string]: string } = {
  Play: 'url',
  Redirect: 'url',
  Enqueue: 'name',
  Number: 'number',
  Client: 'name',
  Sip: 'uri',
  Conference: 'name',
  Queue: 'name',
};

const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
/** The XML 1.0 `Name` production. */
const XML_NAME = new RegExp(
  `^[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040]*$`,
  'u',
);

/** Names already checked; bounded so a stream of odd unknown verbs cannot grow it forever. */
const checkedNames = new Set<string>(['Response', ...Object.keys(TEXT_FIELD)]);

/** Refuses what is not an XML name with at most one colon, inside it (as xmlbuilder2 did). */
function checkName(name: string): string {
  if (checkedNames.has(name)) return name;
  const colon = name.indexOf(':');
  const qualified = colon === -1 || (colon > 0 && colon < name.length - 1 && !name.includes(':', colon + 1));
  if (!qualified || !XML_NAME.test(name)) {
    throw new BuildError('invalid-name', `invalid XML name: ${JSON.stringify(name)}`);
  }
  if (checkedNames.size < 1024) checkedNames.add(name);
  return name;
}

const ENTITIES: { readonly [char: string]: string } = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
const escapeChar = (char: string): string => ENTITIES[char];

/**
 * Every `&` is escaped, even one that already looks like a reference (`&#65;`, `&amp;`), so the
 * text reads back exactly; `'` and `"` stay literal in text, as in xmlbuilder2's output. A CR is
 * written as a reference because XML reads a literal one as a line feed.
 */
function escapeText(value: string): string {
  return /[&<>\r]/.test(value) ? value.replace(/[&<>\r]/g, escapeChar) : value;
}

/** Tab, LF and CR are written as references because XML reads them as spaces in a value. */
function escapeAttribute(value: string): string {
  return /[&<>"\t\n\r]/.test(value) ? value.replace(/[&<>"\t\n\r]/g, escapeChar) : value;
}

/** ` a="1" b="2"` for the set fields of a model node, in field order. */
function attributesOf(node: object, textField: string): string {
  let out = '';
  for (const key in node) {
    if (!Object.hasOwn(node, key) || key === textField || NOT_ATTRIBUTES.has(key)) continue;
    const value: unknown = (node as { [field: string]: unknown })[key];
    if (value === undefined) continue;
    out += ` ${checkName(key)}="${escapeAttribute(Array.isArray(value) ? value.join(',') : String(value))}"`;
  }
  return out;
}

/** Line starts per depth; documents are at most four levels deep (a noun's `<Video>`). */
const LINE_STARTS = ['\n', '\n  ', '\n    ', '\n      '];

/** Accumulates the XML text. */
class Writer {
  out = DECLARATION;

  constructor(readonly pretty: boolean) {}

  /** Starts a line at `depth` (nothing when not pretty). */
  line(depth: number): void {
    if (this.pretty) this.out += LINE_STARTS[depth] ?? `\n${'  '.repeat(depth)}`;
  }

  /**
   * `<name attrs/>` or `<name attrs>text</name>`. An empty `textNode` stands for an empty text
   * child, which xmlbuilder2 wrote as `<name></name>` unless pretty printing.
   */
  leaf(depth: number, name: string, attributes: string, text: string, textNode = text !== ''): void {
    this.line(depth);
    this.out +=
      textNode && (text !== '' || !this.pretty)
        ? `<${name}${attributes}>${escapeText(text)}</${name}>`
        : `<${name}${attributes}/>`;
  }

  /** Opens an element that has child elements; `text` (rare) goes on its own line first. */
  open(depth: number, name: string, attributes: string, text: string): void {
    this.line(depth);
    this.out += `<${name}${attributes}>`;
    if (text !== '') {
      this.line(depth + 1);
      this.out += escapeText(text);
    }
  }

  close(depth: number, name: string): void {
    this.line(depth);
    this.out += `</${name}>`;
  }
}

function textOf(node: object, field: string): string {
  const text: unknown = (node as { [field: string]: unknown })[field];
  return typeof text === 'string' ? text : '';
}

/** A verb or noun whose only content is its text field. */
function writeNode(w: Writer, depth: number, name: string, node: object): void {
  const textField = TEXT_FIELD[name] ?? 'text';
  w.leaf(depth, checkName(name), attributesOf(node, textField), textOf(node, textField));
}

/** A noun written back as Dial text, or undefined when it carries attributes text cannot hold. */
function asText(noun: DialNoun): string | undefined {
  if (attributesOf(noun, TEXT_FIELD[noun.noun]) !== '' || ('video' in noun && noun.video)) return undefined;
  if (noun.noun === 'Number') return noun.number;
  if (noun.noun === 'Client') return `client:${noun.name}`;
  if (noun.noun === 'Sip') return noun.uri;
  return undefined;
}

function writeDial(w: Writer, depth: number, dial: Dial): void {
  const attributes = attributesOf(dial, '');
  const only = dial.nouns.length === 1 ? dial.nouns[0] : undefined;
  const text = dial.fromText && only ? asText(only) : undefined;
  if (text !== undefined || dial.nouns.length === 0) {
    w.leaf(depth, 'Dial', attributes, text ?? '', text !== undefined);
    return;
  }
  w.open(depth, 'Dial', attributes, '');
  for (const noun of dial.nouns) {
    if ('video' in noun && noun.video) writeVideoNoun(w, depth + 1, noun, noun.video);
    else writeNode(w, depth + 1, noun.noun, noun);
  }
  w.close(depth, 'Dial');
}

/**
 * A noun with video, as the designer's noun converters write it: the destination in a `name`
 * attribute after the others, then the `<Video>` child.
 */
function writeVideoNoun(w: Writer, depth: number, noun: DialNoun, video: NounVideo): void {
  const textField = TEXT_FIELD[noun.noun];
  const destination = textOf(noun, textField);
  const name = destination === '' ? '' : ` name="${escapeAttribute(destination)}"`;
  w.open(depth, noun.noun, attributesOf(noun, textField) + name, '');
  w.leaf(depth + 1, 'Video', attributesOf(video, ''), '', false);
  w.close(depth, noun.noun);
}

function writeUnknown(w: Writer, depth: number, verb: UnknownVerb): void {
  let attributes = '';
  for (const [key, value] of Object.entries(verb.attributes)) {
    attributes += ` ${checkName(key)}="${escapeAttribute(value)}"`;
  }
  const name = checkName(verb.name);
  if (!verb.children || verb.children.length === 0) {
    w.leaf(depth, name, attributes, verb.text);
    return;
  }
  w.open(depth, name, attributes, verb.text);
  for (const child of verb.children) writeUnknown(w, depth + 1, child);
  w.close(depth, name);
}

function writeVerb(w: Writer, verb: Verb): void {
  switch (verb.verb) {
    case 'Unknown':
      writeUnknown(w, 1, verb);
      return;
    case 'Dial':
      writeDial(w, 1, verb);
      return;
    case 'Gather': {
      if (verb.prompts.length === 0) {
        writeNode(w, 1, 'Gather', verb);
        return;
      }
      w.open(1, 'Gather', attributesOf(verb, 'text'), textOf(verb, 'text'));
      for (const prompt of verb.prompts) writeNode(w, 2, prompt.verb, prompt);
      w.close(1, 'Gather');
      return;
    }
    default:
      writeNode(w, 1, verb.verb, verb);
  }
}

/**
 * Serialises a document to XML with an `<?xml version="1.0" encoding="UTF-8"?>` header.
 * Only attributes the document sets are written (defaults stay implicit); positions are ignored.
 * Throws {@link BuildError} when an unknown verb or an attribute has a name XML cannot hold.
 */
export function buildRcml(doc: RcmlDocument, options: BuildOptions = {}): string {
  const w = new Writer(options.pretty ?? true);
  if (doc.verbs.length === 0) {
    w.leaf(0, 'Response', '', '');
    return w.out;
  }
  w.open(0, 'Response', '', '');
  for (const verb of doc.verbs) writeVerb(w, verb);
  w.close(0, 'Response');
  return w.out;
}
