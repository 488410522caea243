import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../../src/rcml/xml/entities.js';
import { scanXml } from '../../../src/rcml/xml/scan.js';

function failure(xml: string) {
  const result = scanXml(xml);
  if (result.ok) throw new Error('expected a failure');
  return result;
}

describe('scanXml', () => {
  it('builds the element tree with offsets, attributes and decoded text', () => {
    const result = scanXml(
      '<?xml version="1.0"?>\n<R a="1" b=\'x&amp;y\'><S>t&lt;<![CDATA[<c>]]></S><!-- c --><?pi?></R>',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { root } = result;
    expect(root).toMatchObject({ name: 'R', offset: 22 });
    expect(root.attributes).toEqual([
      { name: 'a', value: '1', offset: 25 },
      { name: 'b', value: 'x&y', offset: 31 },
    ]);
    expect(root.children[0]).toMatchObject({ name: 'S', text: 't<<c>' });
  });

  it.each([
    ['<R><S></R>', 'expected </S> but found </R>', 6],
    ['<R><S>', 'element <S> is not closed', 3],
    ['<R></R><R/>', 'a second root element', 7],
    ['<R></R>junk', 'text after the root element', 7],
    ['junk<R/>', 'text before the root element', 0],
    ['<R a=1/>', 'must be quoted', 5],
    ['<R a/>', 'has no value', 3],
    ['<R a="1" a="2"/>', 'duplicate attribute', 9],
    ['<R a="1"b="2"/>', 'expected whitespace', 8],
    ['<R a="<"/>', '"<" is not allowed', 6],
    ['<R><1S/></R>', 'invalid element name', 4],
    ['<R><!-- x</R>', 'unterminated comment', 3],
    ['<R><![CDATA[x</R>', 'unterminated CDATA', 3],
    ['<R a="x/>', 'unterminated value', 5],
    ['<R', 'unterminated tag', 0],
    ['</R>', 'without an opening tag', 0],
    ['', 'the document is empty', 0],
    ['<!-- only a comment -->', 'no root element', 0],
  ])('rejects %j: %s', (xml, message, offset) => {
    const result = failure(xml);
    expect(result.code).toBe('xml.malformed');
    expect(result.message).toContain(message);
    expect(result.offset).toBe(offset);
  });

  it('refuses any DOCTYPE, so a billion-laughs document never expands', () => {
    const laughs = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE lolz [',
      '<!ENTITY lol "lol">',
      ...Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
      ),
      ']>',
      '<Response><Say>&lol9;</Say></Response>',
    ].join('\n');
    const result = failure(laughs);
    expect(result.code).toBe('rcml.dtd');
    expect(failure('<R><!doctype x></R>').code).toBe('rcml.dtd');
  });
});

describe('decodeEntities', () => {
  it('expands the predefined and numeric references', () => {
    expect(decodeEntities('&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F389;')).toBe('<>&"\'AB🎉');
  });

  it('keeps a bare or unknown & literally', () => {
    expect(decodeEntities('sip:a@h?x=1&y=2')).toBe('sip:a@h?x=1&y=2');
    expect(decodeEntities('&lol9; & &#0; &#xD800; &#99999999;')).toBe('&lol9; & &#0; &#xD800; &#99999999;');
    expect(decodeEntities('a & b &amp; c')).toBe('a & b & c');
  });
});
