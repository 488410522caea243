/**
 * Arbitrary XML documents built from fragments, for the differential test of the scanner.
 *
 * Each fragment is written twice: `raw` is the document under test; `strict` is the same text
 * with every bare `&` (one that does not start a predefined or numeric reference, which the
 * scanner keeps as a literal `&`) written as `&amp;`, so a conforming parser reads `strict` as
 * the scanner should read `raw`. `lenient` names the fast-xml-parser XMLValidator gaps the
 * fragment exercises: inputs that are not well-formed XML but that the validator accepts.
 */
import fc from 'fast-check';

export const VALIDATOR_GAPS = [
  'lt-in-attribute',
  'cdata-outside-root',
  'after-self-closing-root',
  'xml-declaration-in-content',
  'double-hyphen-in-comment',
  'cdata-end-in-text',
  'unterminated-after-root',
  'pi-without-target',
] as const;
export type ValidatorGap = (typeof VALIDATOR_GAPS)[number];

export interface Fragment {
  raw: string;
  strict: string;
  lenient: readonly ValidatorGap[];
}

const same = (raw: string, ...lenient: ValidatorGap[]): Fragment => ({ raw, strict: raw, lenient });
const join = (parts: readonly Fragment[]): Fragment => ({
  raw: parts.map((p) => p.raw).join(''),
  strict: parts.map((p) => p.strict).join(''),
  lenient: parts.flatMap((p) => p.lenient),
});
const pieces = (piece: fc.Arbitrary<Fragment>, maxLength = 6) => fc.array(piece, { maxLength }).map(join);
/** Mostly `usual`, sometimes one of `defects`. */
const rarely = <T>(usual: fc.Arbitrary<T>, ...defects: fc.Arbitrary<T>[]) =>
  defects.length === 0
    ? usual
    : fc.oneof({ arbitrary: usual, weight: 60 }, ...defects.map((arbitrary) => ({ arbitrary, weight: 1 })));

const lineBreaks = ['\n', '\r\n', '\r'];
const whitespace = fc.constantFrom(' ', '\t', ...lineBreaks);
const spaces = (minLength: number) =>
  fc.array(whitespace, { minLength, maxLength: 3 }).map((s) => s.join(''));

// A `]` is always followed by `x` and a `?` or `-` likewise, so no piece sequence forms `]]>`,
// `?>` or `--` by accident; those appear only as the explicit defects below.
const plainText = [
  'a',
  'Z',
  '0',
  ' ',
  '\t',
  ...lineBreaks,
  '>',
  '"',
  "'",
  '=',
  '/',
  ';',
  '#',
  ']x',
  'é',
  '🎉',
];
const predefined = fc.constantFrom('&amp;', '&lt;', '&gt;', '&quot;', '&apos;').map((s) => same(s));
const codePoints = [9, 10, 13, 32, 38, 60, 65, 0xe9, 0xd7ff, 0xe000, 0xfffd, 0x10000, 0x1f389, 0x10ffff];
const numericReference = fc
  .record({ code: fc.constantFrom(...codePoints), hex: fc.boolean(), zeros: fc.nat(9), upper: fc.boolean() })
  .map(({ code, hex, zeros, upper }) => {
    const digits = code.toString(hex ? 16 : 10);
    return same(`&#${hex ? 'x' : ''}${'0'.repeat(zeros)}${upper ? digits.toUpperCase() : digits};`);
  });
// Each ends with `;` or a space so the next piece cannot complete it into a reference.
const bareAmpersand = fc
  .constantFrom(
    '& ',
    '&foo; ',
    '&#0;',
    '&#xD800;',
    '&#X41;',
    '&#; ',
    '&#x;',
    '&#1114112;',
    '&amp ',
    '&#65 ',
    '&;',
  )
  .map((raw) => ({ raw, strict: `&amp;${raw.slice(1)}`, lenient: [] }));
const references = fc.oneof(predefined, numericReference, bareAmpersand);

const textPiece = rarely(
  fc.oneof({ arbitrary: fc.constantFrom(...plainText).map((s) => same(s)), weight: 3 }, references),
  fc.constant(same(']]>', 'cdata-end-in-text')),
  fc.constant(same(' < ')),
);

const attributeValuePiece = (quote: string) =>
  rarely(
    fc.oneof(
      {
        arbitrary: fc
          .constantFrom(...plainText, ']]')
          .filter((s) => s !== quote)
          .map((s) => same(s)),
        weight: 3,
      },
      references,
    ),
    fc.constant(same('<', 'lt-in-attribute')),
  );

const elementNames = ['Response', 'Say', 'a', 'b:c', '_x', 'x-y.z', 'é'];
const badNames = ['1a', '-a', '.a'];
const elementName = rarely(fc.constantFrom(...elementNames), fc.constantFrom(...badNames));
const attributeName = rarely(
  fc.constantFrom('a', 'b', 'x:y', '_z', 'é', 'data-v'),
  fc.constantFrom(...badNames),
);

const attribute = fc
  .record({
    name: attributeName,
    quote: fc.constantFrom('"', "'"),
    before: spaces(1),
    aroundEquals: fc.tuple(fc.constantFrom('', ' ', '\r\n'), fc.constantFrom('', '\t', '\n')),
    defect: rarely(
      fc.constant('none' as const),
      fc.constantFrom('unquoted' as const, 'no-value' as const, 'no-space' as const),
    ),
  })
  .chain((a) => pieces(attributeValuePiece(a.quote), 5).map((value) => ({ ...a, value })));

function attributesFragment(list: readonly (typeof attribute extends fc.Arbitrary<infer A> ? A : never)[]) {
  return join(
    list.map((a) => {
      const before = a.defect === 'no-space' ? '' : a.before;
      if (a.defect === 'no-value') return same(`${before}${a.name}`);
      if (a.defect === 'unquoted') return same(`${before}${a.name}=v`);
      const [l, r] = a.aroundEquals;
      return join([same(`${before}${a.name}${l}=${r}${a.quote}`), a.value, same(a.quote)]);
    }),
  );
}

const commentBody = pieces(fc.constantFrom('a', ' ', '<', '&', '-x', '>', ...lineBreaks).map((s) => same(s)));
const comment = fc
  .tuple(commentBody, rarely(fc.constant(''), fc.constantFrom('--', '-')))
  .map(([body, defect]) =>
    join([same('<!--'), body, defect ? same(defect, 'double-hyphen-in-comment') : same(''), same('-->')]),
  );

const cdataBody = pieces(
  fc.constantFrom('a', ' ', '<', '&', ']x', ']]x', '>', '&amp;', ...lineBreaks).map((s) => same(s)),
);
const cdata = cdataBody.map((body) => join([same('<![CDATA['), body, same(']]>')]));

const piBody = pieces(
  fc.constantFrom('a', ' ', '<', '&', '>', '?x', '"', ...lineBreaks).map((s) => same(s)),
  4,
);
const processingInstruction = rarely(
  fc
    .tuple(fc.constantFrom('pi', 'xml-stylesheet', 'p.x', 'xmlfoo'), spaces(1), piBody, fc.boolean())
    .map(([target, space, body, bare]) =>
      bare ? same(`<?${target}?>`) : join([same(`<?${target}${space}`), body, same('?>')]),
    ),
  fc.constant(same('<? x?>', 'pi-without-target')),
);
const xmlDeclaration = fc
  .tuple(fc.constantFrom('"', "'"), fc.boolean())
  .map(([q, encoding]) => `<?xml version=${q}1.0${q}${encoding ? ` encoding=${q}UTF-8${q}` : ''}?>`);

interface ElementShape {
  fragment: Fragment;
  selfClosing: boolean;
}

const element: (depth: number) => fc.Arbitrary<ElementShape> = fc.memo((depth: number) => {
  const content = pieces(
    fc.oneof(
      { arbitrary: textPiece, weight: 4 },
      { arbitrary: comment, weight: 1 },
      { arbitrary: cdata, weight: 1 },
      { arbitrary: processingInstruction, weight: 1 },
      {
        arbitrary: rarely(
          fc.constant(same('')),
          xmlDeclaration.map((d) => same(d, 'xml-declaration-in-content')),
        ),
        weight: 1,
      },
      ...(depth > 1 ? [{ arbitrary: element(depth - 1).map((e) => e.fragment), weight: 3 }] : []),
    ),
  );
  return fc
    .record({
      name: elementName,
      attributes: fc.array(attribute, { maxLength: 3 }),
      duplicate: rarely(fc.constant(false), fc.constant(true)),
      selfClosing: fc.boolean(),
      tagEnd: spaces(0),
      content,
      close: rarely(fc.constant('same' as const), fc.constantFrom('other' as const, 'none' as const)),
      closeSpace: spaces(0),
    })
    .map((e) => {
      const list = e.duplicate && e.attributes.length > 0 ? [...e.attributes, e.attributes[0]] : e.attributes;
      const open = join([same(`<${e.name}`), attributesFragment(list), same(e.tagEnd)]);
      if (e.selfClosing) return { fragment: join([open, same('/>')]), selfClosing: true };
      const closeName = e.close === 'other' ? (e.name === 'a' ? 'Say' : 'a') : e.name;
      const close = e.close === 'none' ? '' : `</${closeName}${e.closeSpace}>`;
      return { fragment: join([open, same('>'), e.content, same(close)]), selfClosing: false };
    });
});

const misc = fc.oneof(
  { arbitrary: spaces(1).map((s) => same(s)), weight: 3 },
  { arbitrary: comment, weight: 1 },
  { arbitrary: processingInstruction, weight: 1 },
);

/** A generated document and the XMLValidator gaps it exercises. */
export const arbitraryXmlDocument: fc.Arbitrary<Fragment> = fc
  .record({
    bom: rarely(fc.constant(false), fc.constant(true)),
    declaration: fc.option(xmlDeclaration),
    prolog: fc.array(
      rarely(
        misc,
        fc.constant(same('junk')),
        cdata.map((c) => ({ ...c, lenient: ['cdata-outside-root' as const] })),
        xmlDeclaration.map((d) => same(d)),
      ),
      { maxLength: 3 },
    ),
    root: element(3),
    epilogue: fc.array(
      rarely<{ m: Fragment; kind: 'misc' | 'text' | 'root' }>(
        misc.map((m) => ({ m, kind: 'misc' as const })),
        fc.constant({ m: same('junk'), kind: 'text' as const }),
        fc.constantFrom('<b/>', '<b></b>').map((s) => ({ m: same(s), kind: 'root' as const })),
        cdata.map((c) => ({ m: { ...c, lenient: ['cdata-outside-root' as const] }, kind: 'misc' as const })),
        xmlDeclaration.map((d) => ({ m: same(d, 'xml-declaration-in-content'), kind: 'misc' as const })),
      ),
      { maxLength: 3 },
    ),
    tail: rarely(
      fc.constant(same('')),
      fc.constantFrom('<!-- x', '<?pi x', '<![CDATA[x').map((s) => same(s, 'unterminated-after-root')),
      fc.constantFrom('<a b="1', '<a', '</').map((s) => same(s)),
    ),
  })
  .map((d) => {
    const epilogue = d.epilogue.map(({ m, kind }) => {
      // The validator only counts a root as ended after a closing tag: after a self-closing
      // root (or before a self-closing second one) it accepts text and further elements.
      const selfClosingGap = kind !== 'misc' && (d.root.selfClosing || m.raw === '<b/>');
      return selfClosingGap ? { ...m, lenient: [...m.lenient, 'after-self-closing-root' as const] } : m;
    });
    return join([
      same(d.bom ? '\ufeff' : ''),
      same(d.declaration ?? ''),
      ...d.prolog,
      d.root.fragment,
      ...epilogue,
      d.tail,
    ]);
  });
