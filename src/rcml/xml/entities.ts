/**
 * Character data of RCML text and attribute values, read as XML 1.0 reads it: line ends are
 * normalised (CR LF and lone CR become LF; in attribute values every literal tab, CR or LF
 * becomes a space), then the five predefined entities and numeric character references are
 * expanded. DTDs are refused before this runs, so no entity can expand to more than one
 * character. A `&` that does not start one of these references is kept as a literal `&`: real
 * RCML puts bare `&` in SIP URIs (`?a=1&b=2`).
 */

const NAMED: { readonly [name: string]: string } = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Longest predefined entity reference: `&quot;` and `&apos;` are 6 characters. */
const MAX_NAMED_REFERENCE = 6;

const LINE_END = /\r\n?/g;
const ATTRIBUTE_WHITESPACE = /\r\n|[\t\n\r]/g;
const HAS_ATTRIBUTE_WHITESPACE = /[\t\n\r]/;

/** Text or CDATA as written, with XML line-end normalisation. */
export function normalizeLineEnds(raw: string): string {
  return raw.indexOf('\r') === -1 ? raw : raw.replace(LINE_END, '\n');
}

/** The value of element text as written between tags. */
export function decodeText(raw: string): string {
  return decodeEntities(normalizeLineEnds(raw));
}

/** The value of an attribute as written between its quotes. */
export function decodeAttribute(raw: string): string {
  return decodeEntities(HAS_ATTRIBUTE_WHITESPACE.test(raw) ? raw.replace(ATTRIBUTE_WHITESPACE, ' ') : raw);
}

/** Decodes `raw`, leaving bare or unknown `&` sequences as written. */
export function decodeEntities(raw: string): string {
  let amp = raw.indexOf('&');
  if (amp === -1) return raw;
  let out = '';
  let from = 0;
  while (amp !== -1) {
    const end = raw.charCodeAt(amp + 1) === 35 /* # */ ? numericEnd(raw, amp) : namedEnd(raw, amp);
    if (end !== -1) {
      out += raw.slice(from, amp) + referenceValue(raw, amp, end);
      from = end + 1;
      amp = raw.indexOf('&', from);
    } else {
      amp = raw.indexOf('&', amp + 1);
    }
  }
  return out + raw.slice(from);
}

/** Offset of the `;` ending a predefined entity reference at `amp`, or -1. */
function namedEnd(raw: string, amp: number): number {
  // Only the few characters a reference can span are looked at: searching the rest of the text
  // for a `;` from every `&` made a text of bare `&` quadratic.
  const last = Math.min(raw.length - 1, amp + MAX_NAMED_REFERENCE);
  let semi = -1;
  for (let i = amp + 1; i <= last; i++) {
    if (raw.charCodeAt(i) === 59 /* ; */) {
      semi = i;
      break;
    }
  }
  if (semi === -1) return -1;
  return Object.hasOwn(NAMED, raw.slice(amp + 1, semi)) ? semi : -1;
}

/**
 * Offset of the `;` ending a numeric reference at `amp` (`&#` digits or `&#x` hex digits, any
 * number of leading zeros) whose character XML allows, or -1.
 */
function numericEnd(raw: string, amp: number): number {
  const hex = raw.charCodeAt(amp + 2) === 120; /* x */
  let i = amp + (hex ? 3 : 2);
  let code = 0;
  const first = i;
  for (; i < raw.length; i++) {
    const digit = digitValue(raw.charCodeAt(i), hex);
    if (digit === -1) break;
    // Past the largest code point the value only grows: stop counting, keep it out of range.
    code = code > 0x10ffff ? code : code * (hex ? 16 : 10) + digit;
  }
  if (i === first || raw.charCodeAt(i) !== 59 /* ; */) return -1;
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? i : -1;
}

function digitValue(c: number, hex: boolean): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (!hex) return -1;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The character of the reference from `amp` to `semi`, which `namedEnd`/`numericEnd` accepted. */
function referenceValue(raw: string, amp: number, semi: number): string {
  if (raw.charCodeAt(amp + 1) !== 35) return NAMED[raw.slice(amp + 1, semi)];
  const hex = raw.charCodeAt(amp + 2) === 120;
  return String.fromCodePoint(Number.parseInt(raw.slice(amp + (hex ? 3 : 2), semi), hex ? 16 : 10));
}
