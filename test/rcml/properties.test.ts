import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRcml, parseRcml } from '../../src/rcml/index.js';
import { arbitraryRcmlDocument, withoutPositions } from '../../src/rcml/testing.js';

const runs = (quick: number) => ({ numRuns: process.env.RCML_DEEP ? quick * 40 : quick });

describe('RCML properties', () => {
  it('a valid document survives build -> parse unchanged, with no diagnostics but unknown verbs', () => {
    fc.assert(
      fc.property(arbitraryRcmlDocument(), fc.boolean(), (doc, pretty) => {
        const result = parseRcml(buildRcml(doc, { pretty }));
        expect(result.diagnostics.filter((d) => d.code !== 'rcml.unknown-verb')).toEqual([]);
        expect(result.ok).toBe(true);
        if (result.ok) expect(withoutPositions(result.document)).toEqual(doc);
      }),
      runs(300),
    );
  });

  it('every parsed verb carries a position inside the source', () => {
    fc.assert(
      fc.property(arbitraryRcmlDocument(), (doc) => {
        const xml = buildRcml(doc);
        const lines = xml.split('\n');
        const result = parseRcml(xml);
        if (!result.ok) return;
        for (const verb of result.document.verbs) {
          const line = lines[verb.pos!.line - 1];
          expect(line[verb.pos!.column - 1]).toBe('<');
        }
      }),
      runs(100),
    );
  });

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat(20) }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      text: fc.constantFrom(
        '<',
        '>',
        '&',
        '"',
        "'",
        '</Say>',
        '<Dial>',
        '<!DOCTYPE x>',
        '<![CDATA[',
        '&#0;',
        '\u0000',
        '<?',
      ),
    }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.nat(40) }),
  );

  it('mutated documents never make parseRcml throw, and errors carry valid positions', () => {
    fc.assert(
      fc.property(
        arbitraryRcmlDocument(),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (doc, mutations) => {
          let xml = buildRcml(doc);
          for (const m of mutations) {
            const at = m.at % (xml.length + 1);
            if (m.kind === 'delete') xml = xml.slice(0, at) + xml.slice(at + m.length);
            else if (m.kind === 'insert') xml = xml.slice(0, at) + m.text + xml.slice(at);
            else xml = xml.slice(0, at) + xml.slice(at, at + m.length) + xml.slice(at);
          }
          const result = parseRcml(xml);
          const lineCount = xml.split('\n').length;
          for (const d of result.diagnostics) {
            expect(d.line).toBeGreaterThanOrEqual(1);
            expect(d.line).toBeLessThanOrEqual(lineCount);
            expect(d.column).toBeGreaterThanOrEqual(1);
            expect(d.code).not.toBe('rcml.internal');
          }
          expect(result.ok).toBe(!result.diagnostics.some((d) => d.severity === 'error'));
        },
      ),
      runs(500),
    );
  });
});
