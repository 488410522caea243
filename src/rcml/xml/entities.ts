/**
 * Entity decoding for RCML text and attribute values. Only the five predefined XML entities
 * and numeric character references are expanded; DTDs are refused before this runs, so no
 * entity can expand to more than one character. A `&` that does not start one of these is
 * kept as a literal `&`: real RCML puts bare `&` in SIP URIs (`?a=1&b=2`).
 */

const NAMED: { readonly [name: string]: string } = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Longest reference we look for: `&#x10FFFF;` is 10 characters. */
const MAX_REFERENCE = 10;

/** Decodes `raw`, leaving bare or unknown `&` sequences as written. */
export function decodeEntities(raw: string): string {
  let amp = raw.indexOf('&');
  if (amp === -1) return raw;
  let out = '';
  let from = 0;
  while (amp !== -1) {
    const semi = raw.indexOf(';', amp + 1);
    let replacement: string | undefined;
    if (semi !== -1 && semi - amp <= MAX_REFERENCE) {
      replacement = referenceValue(raw.slice(amp + 1, semi));
    }
    if (replacement !== undefined) {
      out += raw.slice(from, amp) + replacement;
      from = semi + 1;
      amp = raw.indexOf('&', from);
    } else {
      amp = raw.indexOf('&', amp + 1);
    }
  }
  return out + raw.slice(from);
}

function referenceValue(name: string): string | undefined {
  if (name.charCodeAt(0) !== 35 /* # */) return Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
  const hex = name.charCodeAt(1) === 120 /* x */;
  const digits = name.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) return undefined;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? String.fromCodePoint(code) : undefined;
}
