import type { ReadContext } from '../context.js';
import { attribute, requiredText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';

/**
 * The target a Dial noun names in its text. Some platform samples put it in a `name`
 * attribute instead (`<Client name="alice"/>`): that is not RCML, so it is a warning, but the
 * value is used when the text is empty so the document still works. With `named` (a noun with
 * a `<Video>` child, as the Visual Designer writes it) the `name` attribute is the expected
 * place and takes no warning.
 */
export function nounTarget(el: XmlElement, ctx: ReadContext, what: string, named = false): string {
  const name = attribute(el, 'name');
  const value = el.text.trim();
  if (named && name && value === '' && name.value.trim() !== '') return name.value.trim();
  if (name) {
    const used = value === '' && name.value.trim() !== '';
    ctx.warn(
      'rcml.unknown-attribute',
      used
        ? `"name" is not an attribute of <${el.name}>: put ${what} in the element text (using "${name.value.trim()}")`
        : `unknown attribute "name" on <${el.name}> (ignored)`,
      name.offset,
      `${el.name}@name`,
    );
    if (used) return name.value.trim();
  }
  return requiredText(el, ctx, what);
}

/** Reader signature shared by the nouns. */
export type NounReader<T> = (el: XmlElement, ctx: ReadContext) => T;
