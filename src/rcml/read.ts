/** Helpers shared by the verb readers in `verbs/`. */
import type { ReadContext } from './context.js';
import { isKnownElement } from './names.js';
import type { AttrRules } from './verbs/rules.js';
import type { XmlElement } from './xml/scan.js';

/**
 * Reads the attributes of `el` with `rules`: unknown attributes and invalid values are
 * warnings (the value is dropped so the default applies). Names in `extra` are left to the
 * caller.
 */
export function readAttributes<A>(
  el: XmlElement,
  rules: AttrRules<A>,
  ctx: ReadContext,
  extra?: string,
): Partial<A> {
  const out: { [name: string]: unknown } = {};
  for (const attr of el.attributes) {
    if (!Object.hasOwn(rules, attr.name)) {
      if (attr.name === extra) continue;
      ctx.warn(
        'rcml.unknown-attribute',
        `unknown attribute "${attr.name}" on <${el.name}> (ignored)`,
        attr.offset,
        `${el.name}@${attr.name}`,
      );
      continue;
    }
    const rule = (rules as { [name: string]: AttrRules<A>[keyof A] })[attr.name];
    const value = rule.read(attr.value);
    if (value === undefined) {
      const instead = rule.fallback === undefined ? 'the default' : `"${String(rule.fallback)}"`;
      ctx.warn(
        rule.code,
        `invalid ${attr.name}="${attr.value}" on <${el.name}>: expected ${rule.expected}; ${instead} is used`,
        attr.offset,
        `${el.name}@${attr.name}`,
      );
      if (rule.fallback !== undefined) out[attr.name] = rule.fallback;
      continue;
    }
    out[attr.name] = value;
  }
  return out as Partial<A>;
}

/** The attribute named `name`, if present. */
export function attribute(el: XmlElement, name: string): XmlElement['attributes'][number] | undefined {
  for (const attr of el.attributes) if (attr.name === name) return attr;
  return undefined;
}

/**
 * Reports child elements of an element that takes none: a known verb or noun is a nesting
 * error, anything else an ignored unknown element.
 */
export function rejectChildren(el: XmlElement, ctx: ReadContext): void {
  for (const child of el.children) reportMisplaced(child, el, ctx, 'rcml.unknown-element');
}

/**
 * Reports `child` as not allowed inside `parent`; it is skipped (the platform skips a verb
 * nested in another verb, so the document still runs).
 */
export function reportMisplaced(
  child: XmlElement,
  parent: XmlElement,
  ctx: ReadContext,
  unknownCode: string,
): void {
  if (isKnownElement(child.name)) {
    ctx.warn(
      'rcml.nesting',
      `<${child.name}> cannot be nested in <${parent.name}> (skipped)`,
      child.offset,
      `${parent.name}/${child.name}`,
    );
  } else {
    ctx.warn(
      unknownCode,
      `unknown element <${child.name}> in <${parent.name}> (ignored)`,
      child.offset,
      `${parent.name}/${child.name}`,
    );
  }
}

/** Warns when an element that takes no text has some. */
export function rejectText(el: XmlElement, ctx: ReadContext): void {
  if (el.text.trim() !== '') {
    ctx.warn('rcml.unexpected-text', `<${el.name}> takes no text (ignored)`, el.offset, el.name);
  }
}

/** Trimmed text of `el`; an error with `code` when it is empty. */
export function requiredText(el: XmlElement, ctx: ReadContext, what: string, code = 'rcml.required'): string {
  const value = el.text.trim();
  if (value === '') ctx.error(code, `<${el.name}> needs ${what} as its text`, el.offset, el.name);
  return value;
}

/**
 * Trimmed text of `el`; a warning with `code` when it is empty, for verbs the platform still
 * runs empty (`effect` says what happens then).
 */
export function expectedText(
  el: XmlElement,
  ctx: ReadContext,
  what: string,
  effect: string,
  code = 'rcml.required',
): string {
  const value = el.text.trim();
  if (value === '') ctx.warn(code, `<${el.name}> needs ${what} as its text (${effect})`, el.offset, el.name);
  return value;
}
