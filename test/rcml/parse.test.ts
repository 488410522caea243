import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRcml } from '../../src/rcml/index.js';

describe('parseRcml', () => {
  it('keeps verbs in document order with their positions', () => {
    const result = parseRcml('<Response>\n  <Say>a</Say>\n  <Hangup/>\n  <Say>b</Say>\n</Response>');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.verbs.map((v) => v.verb)).toEqual(['Say', 'Hangup', 'Say']);
    expect(result.document.verbs.map((v) => v.pos)).toEqual([
      { line: 2, column: 3 },
      { line: 3, column: 3 },
      { line: 4, column: 3 },
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it('reports malformed XML with line:column', () => {
    const result = parseRcml('<Response>\n  <Say>hi</Play>\n</Response>');
    expect(result).toEqual({
      ok: false,
      diagnostics: [
        expect.objectContaining({ code: 'xml.malformed', severity: 'error', line: 2, column: 10 }),
      ],
    });
  });

  // The platform's rcml/Parser walks every element from the root, whatever its name, and runs
  // each verb it meets: another root is a warning, and the document still runs.
  it('warns about a root other than <Response> and reads its children as verbs', () => {
    const result = parseRcml('<?xml version="1.0"?>\n<response><Say>hi</Say></response>');
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'rcml.root', severity: 'warning', line: 2, column: 1 }),
    ]);
    expect(result.ok && result.document.verbs).toEqual([
      expect.objectContaining({ verb: 'Say', text: 'hi' }),
    ]);
  });

  it('takes a root verb for the whole document', () => {
    const result = parseRcml('<Gather numDigits="1"><Say>Press 1</Say></Gather>');
    expect(result.ok && result.document.verbs).toEqual([
      expect.objectContaining({
        verb: 'Gather',
        numDigits: 1,
        prompts: [expect.objectContaining({ verb: 'Say' })],
      }),
    ]);
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([['rcml.root', 'warning']]);
  });

  it('refuses a DOCTYPE with rcml.dtd', () => {
    const result = parseRcml('<!DOCTYPE Response SYSTEM "file:///etc/passwd">\n<Response/>');
    expect(result.ok).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ code: 'rcml.dtd', line: 1, column: 1 });
  });

  it('refuses documents over the size limit, counting UTF-8 bytes', () => {
    const big = `<Response><Say>${'a'.repeat(2000)}</Say></Response>`;
    expect(parseRcml(big, { maxBytes: 1000 }).diagnostics[0]).toMatchObject({ code: 'rcml.too-large' });
    expect(parseRcml(big, { maxBytes: 4096 }).ok).toBe(true);
    const greek = `<Response><Say>${'Κ'.repeat(600)}</Say></Response>`; // 2 bytes each
    expect(greek.length).toBeLessThan(1000);
    expect(parseRcml(greek, { maxBytes: 1000 }).diagnostics[0]).toMatchObject({ code: 'rcml.too-large' });
    const defaultLimit = `<Response><Say>${'a'.repeat(1024 * 1024)}</Say></Response>`;
    expect(parseRcml(defaultLimit).diagnostics[0]).toMatchObject({ code: 'rcml.too-large' });
  });

  it('keeps unknown verbs with a warning', () => {
    const result = parseRcml('<Response><UssdMessage lang="en">Hi</UssdMessage><Say>x</Say></Response>');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.verbs[0]).toEqual({
      verb: 'Unknown',
      name: 'UssdMessage',
      attributes: { lang: 'en' },
      text: 'Hi',
      pos: { line: 1, column: 11 },
    });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'rcml.unknown-verb', severity: 'warning', line: 1, column: 11 }),
    ]);
  });

  it('skips a noun or a nested Response at the top level with a nesting warning', () => {
    for (const name of ['Number', 'Conference', 'Response']) {
      const result = parseRcml(`<Response>\n<${name}>x</${name}><Hangup/></Response>`);
      expect(result.ok && result.document.verbs.map((v) => v.verb)).toEqual(['Hangup']);
      expect(result.diagnostics).toEqual([
        expect.objectContaining({ code: 'rcml.nesting', severity: 'warning', line: 2, column: 1 }),
      ]);
    }
  });

  it('accepts an empty Response, comments, processing instructions and a BOM', () => {
    expect(parseRcml('\uFEFF<?xml version="1.0"?><!-- hi --><Response/>')).toEqual({
      ok: true,
      document: { verbs: [] },
      diagnostics: [],
    });
  });

  it('lists diagnostics in source order', () => {
    const result = parseRcml('<Response>\n<Say loop="x" foo="1">a<b/></Say>\n</Response>');
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['13510', 2, 6],
      ['rcml.unknown-attribute', 2, 15],
      ['rcml.unknown-element', 2, 24],
    ]);
  });

  it('returns a diagnostic for non-string input instead of throwing', () => {
    expect(parseRcml(42 as unknown as string).diagnostics[0]).toMatchObject({ code: 'xml.malformed' });
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const result = parseRcml(s);
        expect(result.ok || result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
      }),
      { numRuns: process.env.RCML_DEEP ? 20_000 : 500 },
    );
  });
});
