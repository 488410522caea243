/**
 * The scanner's work grows linearly with the document. Work is counted, not timed: every string
 * operation the scanner makes during a scan adds the characters it looks at (one per
 * `charCodeAt`, the stretch searched by `indexOf`, the length of a `slice`...), so the count is
 * deterministic. For adversarial documents built by repeating a generated unit, the work per
 * byte at eight times the size stays within a factor of two of the work per byte at the smaller
 * size; a quadratic path gives about eight.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ATTRIBUTES, scanXml } from '../../../src/rcml/xml/scan.js';

const SMALL = 20_000;
const FACTOR = 8;
/** Work per byte may grow this much from the small to the large size (quadratic: ~FACTOR). */
const TOLERANCE = 2;

type Costed = 'charCodeAt' | 'indexOf' | 'startsWith' | 'slice' | 'toUpperCase' | 'toLowerCase' | 'replace';

/** Characters the string operations of one `scanXml(doc)` looked at. */
function workOf(doc: string): number {
  let work = 0;
  const proto = String.prototype as unknown as Record<Costed, (this: string, ...args: unknown[]) => unknown>;
  const test = RegExp.prototype.test;
  const saved = {
    ...Object.fromEntries(
      (
        ['charCodeAt', 'indexOf', 'startsWith', 'slice', 'toUpperCase', 'toLowerCase', 'replace'] as const
      ).map((m) => [m, proto[m]]),
    ),
  } as Record<Costed, (this: string, ...args: unknown[]) => unknown>;
  const cost: Record<Costed, (s: string, args: unknown[], result: unknown) => number> = {
    charCodeAt: () => 1,
    indexOf: (s, [search, from], r) =>
      ((r as number) === -1 ? s.length : (r as number) + String(search).length) - Number(from ?? 0),
    startsWith: (_s, [prefix]) => String(prefix).length,
    slice: (_s, _a, r) => (r as string).length,
    toUpperCase: (s) => s.length,
    toLowerCase: (s) => s.length,
    replace: (s) => s.length,
  };
  for (const m of Object.keys(cost) as Costed[]) {
    proto[m] = function (this: string, ...args: unknown[]) {
      const result = saved[m].apply(this, args);
      work += Math.max(1, cost[m](this, args, result));
      return result;
    };
  }
  RegExp.prototype.test = function (this: RegExp, s: string) {
    work += s.length;
    return test.call(this, s);
  };
  try {
    scanXml(doc);
  } finally {
    Object.assign(proto, saved);
    RegExp.prototype.test = test;
  }
  return work;
}

/** How much the work per byte grew from `build(size)` to `build(size * FACTOR)`. */
function growth(build: (bytes: number) => string): number {
  const perByte = (doc: string) => workOf(doc) / doc.length;
  return perByte(build(SMALL * FACTOR)) / perByte(build(SMALL));
}

// Pieces of text and markup that make a scanner look ahead or back: references that never end,
// near-misses of `]]>`, `-->` and `?>`, unclosed elements, attributes full of `&`.
const textPieces = fc.constantFrom(
  '&',
  '&#',
  '&#x',
  '&#00',
  '&am',
  '&amp',
  '&amp;',
  ';',
  'a',
  '0',
  ']',
  ']]',
  '-',
  '?',
  '\r',
  '\r\n',
  ' ',
  '<!-- - -->',
  '<?p ?>',
  '<![CDATA[ ] ]] & ]]>',
  '<a>',
  '<b/>',
  '<c d="&&#x&am" e=\'&\'/>',
);
const attributePieces = fc.constantFrom('&', '&#', '&#x1', '&am', ';', 'a', '\t', '\r\n', ']]', '-');

const unit = (pieces: fc.Arbitrary<string>) =>
  fc.array(pieces, { minLength: 1, maxLength: 8 }).map((p) => p.join(''));

/** `<Response><Say v="attr...">text...` repeated to about `bytes`, left open (read to the end). */
const repeated = (text: string, attr: string) => (bytes: number) => {
  const times = Math.ceil(bytes / (text.length + attr.length));
  return `<Response><Say v="${attr.repeat(times)}">${text.repeat(times)}`;
};

describe('scanXml is linear', () => {
  it('in documents repeating any adversarial unit of text and attribute value', () => {
    fc.assert(
      fc.property(unit(textPieces), unit(attributePieces), (text, attr) => {
        expect(growth(repeated(text, attr))).toBeLessThan(TOLERANCE);
      }),
      {
        numRuns: 25,
        // The paths once found quadratic: bare `&` in text and in attribute values.
        examples: [
          ['&', 'a'],
          ['a', '&'],
          ['&#', '&am'],
        ],
      },
    );
  });

  it('in elements with ever more attributes, which it refuses past the cap with their position', () => {
    // Duplicates were once found by walking the attribute list (no string operation to count):
    // time it, fastest of three, against a margin a quadratic scan (about 8) cannot meet.
    const timeOf = (doc: string) => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        scanXml(doc);
        best = Math.min(best, performance.now() - start);
      }
      return Math.max(best, 0.05);
    };
    const attributes = (bytes: number) => {
      const names: string[] = [];
      for (let size = 0, i = 0; size < bytes; i++) {
        names.push(`a${i}="x"`);
        size += names[i].length + 1;
      }
      return `<Response><Say ${names.join(' ')}>hi</Say></Response>`;
    };
    const small = attributes(SMALL * 2);
    const large = attributes(SMALL * 2 * FACTOR);
    timeOf(small);
    expect(timeOf(large) / large.length / (timeOf(small) / small.length)).toBeLessThan(4);
    const refused = scanXml(attributes(SMALL));
    expect(refused).toMatchObject({
      ok: false,
      code: 'rcml.too-many-attributes',
      message: `<Say> has more than ${MAX_ATTRIBUTES} attributes`,
    });
    const at = attributes(SMALL).indexOf(`a${MAX_ATTRIBUTES}=`);
    expect(refused.ok === false && refused.offset).toBe(at);
    const most = `<Say ${Array.from({ length: MAX_ATTRIBUTES }, (_, i) => `a${i}="x"`).join(' ')}/>`;
    expect(scanXml(most).ok).toBe(true);
  });

  it('in deeply nested and in very many sibling elements', () => {
    expect(
      growth((bytes) => `<Response>${'<a>'.repeat(bytes / 3)}${'</a>'.repeat(bytes / 3)}</Response>`),
    ).toBeLessThan(TOLERANCE);
    expect(growth((bytes) => `<Response>${'<a x="1"/>'.repeat(bytes / 10)}</Response>`)).toBeLessThan(
      TOLERANCE,
    );
  });
});
