import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { Dial, DialNoun, RcmlDocument, Verb } from './model.js';

/** How `buildRcml` writes XML. */
export interface BuildOptions {
  /** Indent one element per line (default true). */
  pretty?: boolean;
}

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

type Attributes = { [name: string]: string };

/**
 * xmlbuilder2 leaves an `&` that already looks like a reference (`&#65;`, `&amp;`) unescaped,
 * which would change the text on the way back. Escaping every `&` first makes it exact:
 * xmlbuilder2 then keeps our `&amp;` as is.
 */
function escapeAmpersands(value: string): string {
  return value.includes('&') ? value.replaceAll('&', '&amp;') : value;
}

function attributesOf(node: object, textField: string): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || key === textField || NOT_ATTRIBUTES.has(key)) continue;
    out[key] = escapeAmpersands(Array.isArray(value) ? value.join(',') : String(value));
  }
  return out;
}

function element(parent: XMLBuilder, name: string, node: object): XMLBuilder {
  const textField = TEXT_FIELD[name] ?? 'text';
  const child = parent.ele(name, attributesOf(node, textField));
  const text = (node as { [field: string]: unknown })[textField];
  if (typeof text === 'string' && text !== '') child.txt(escapeAmpersands(text));
  return child;
}

/** A noun written back as Dial text, or undefined when it carries attributes text cannot hold. */
function asText(noun: DialNoun): string | undefined {
  if (Object.keys(attributesOf(noun, TEXT_FIELD[noun.noun])).length > 0) return undefined;
  if (noun.noun === 'Number') return noun.number;
  if (noun.noun === 'Client') return `client:${noun.name}`;
  if (noun.noun === 'Sip') return noun.uri;
  return undefined;
}

function writeDial(parent: XMLBuilder, dial: Dial): void {
  const el = parent.ele('Dial', attributesOf(dial, ''));
  const only = dial.nouns.length === 1 ? dial.nouns[0] : undefined;
  const text = dial.fromText && only ? asText(only) : undefined;
  if (text !== undefined) {
    el.txt(escapeAmpersands(text));
    return;
  }
  for (const noun of dial.nouns) element(el, noun.noun, noun);
}

function writeVerb(parent: XMLBuilder, verb: Verb): void {
  switch (verb.verb) {
    case 'Unknown': {
      // fromEntries: an attribute literally named `__proto__` stays an own property.
      const attributes: Attributes = Object.fromEntries(
        Object.entries(verb.attributes).map(([key, value]) => [key, escapeAmpersands(value)]),
      );
      const el = parent.ele(verb.name, attributes);
      if (verb.text !== '') el.txt(escapeAmpersands(verb.text));
      return;
    }
    case 'Dial':
      writeDial(parent, verb);
      return;
    case 'Gather': {
      const el = element(parent, 'Gather', verb);
      for (const prompt of verb.prompts) element(el, prompt.verb, prompt);
      return;
    }
    default:
      element(parent, verb.verb, verb);
  }
}

/**
 * Serialises a document to XML with an `<?xml version="1.0" encoding="UTF-8"?>` header.
 * Only attributes the document sets are written (defaults stay implicit); positions are ignored.
 */
export function buildRcml(doc: RcmlDocument, options: BuildOptions = {}): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('Response');
  for (const verb of doc.verbs) writeVerb(root, verb);
  return root.end({ prettyPrint: options.pretty ?? true });
}
