import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { parseRcml } from '../../../src/rcml/parse.js';
import { scanXml, type XmlElement } from '../../../src/rcml/xml/scan.js';
import { arbitraryXmlDocument } from './fragments.js';

const deep = Boolean(process.env.RCML_DEEP);
const runs = deep ? 30_000 : 1500;

interface Tree {
  name: string;
  attributes: [string, string][];
  text: string;
  children: Tree[];
}

/** parseRcml's verdict: well-formed unless it reports malformed XML (a DTD is never generated). */
function wellFormedForParser(xml: string): boolean {
  return !parseRcml(xml).diagnostics.some((d) => d.code === 'xml.malformed' || d.code === 'rcml.dtd');
}

function scannerTree(el: XmlElement): Tree {
  return {
    name: el.name,
    attributes: el.attributes.map((a) => [a.name, a.value]),
    text: el.text,
    children: el.children.map(scannerTree),
  };
}

/** saxes is a conforming XML 1.0 parser: its verdict and element tree are the reference. */
function conformingRead(xml: string): { wellFormed: boolean; root?: Tree } {
  const parser = new SaxesParser();
  let wellFormed = true;
  let root: Tree | undefined;
  const stack: Tree[] = [];
  parser.on('error', () => {
    wellFormed = false;
  });
  parser.on('opentag', (tag) => {
    const node: Tree = {
      name: tag.name,
      attributes: Object.entries(tag.attributes as Record<string, string>),
      text: '',
      children: [],
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else root ??= node;
    stack.push(node);
  });
  parser.on('closetag', () => stack.pop());
  const addText = (text: string) => {
    const top = stack[stack.length - 1];
    if (top) top.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(xml).close();
  } catch {
    wellFormed = false;
  }
  return { wellFormed, root };
}

describe('the RCML scanner against conforming XML parsers', () => {
  it(
    'judges well-formedness as XMLValidator and saxes do, and decodes values as saxes does',
    () => {
      fc.assert(
        fc.property(arbitraryXmlDocument, ({ raw, strict, lenient }) => {
          const ours = wellFormedForParser(raw);
          const conforming = conformingRead(strict);
          // The bare `&` tolerance: `raw` must read as `strict` (bare `&` escaped) reads in XML.
          expect(ours).toBe(conforming.wellFormed);
          const library = XMLValidator.validate(strict) === true;
          if (lenient.length === 0) expect(ours).toBe(library);
          // A gap of the validator only ever makes it accept a document saxes rejects.
          else if (library !== ours) expect([library, conforming.wellFormed]).toEqual([true, false]);
          if (!ours) return;
          const scanned = scanXml(raw);
          expect(scanned.ok).toBe(true);
          if (scanned.ok) expect(scannerTree(scanned.root)).toEqual(conforming.root);
        }),
        { numRuns: runs },
      );
    },
    deep ? 300_000 : 30_000,
  );

  it('decodes numeric references with any number of leading zeros', () => {
    const scanned = scanXml('<a b="&#x000000041;">&#0000000066;</a>');
    expect(scanned.ok && [scanned.root.attributes[0].value, scanned.root.text]).toEqual(['A', 'B']);
  });

  it('normalises line ends in text and CDATA, and whitespace in attribute values', () => {
    const scanned = scanXml('<a b="1\r\n2\t3\r4&#13;&#10;">x\r\ny\rz<![CDATA[\r\n]]></a>');
    expect(scanned.ok && [scanned.root.attributes[0].value, scanned.root.text]).toEqual([
      '1 2 3 4\r\n',
      'x\ny\nz\n',
    ]);
  });

  it.each([
    ['<a>]]></a>', '"]]>"'],
    ['<a><!-- x -- y --></a>', '"--"'],
    ['<a><!-- x ---></a>', '"--"'],
    ['<a><?xml version="1.0"?></a>', 'XML declaration'],
    [' <?xml version="1.0"?><a/>', 'XML declaration'],
    ['<a><? x?></a>', 'processing instruction'],
    ['<a><?XML x?></a>', 'processing instruction'],
  ])('refuses %j', (xml, message) => {
    const scanned = scanXml(xml);
    expect(scanned.ok).toBe(false);
    if (!scanned.ok) expect(scanned.message).toContain(message);
  });
});
