import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/designer/index.js';

describe('parseJson', () => {
  it('locates syntax errors by line and column', () => {
    expect(parseJson('{\n  "a": ,\n}')).toMatchObject({ ok: false, error: { line: 2, column: 8 } });
    expect(parseJson('{"a": [1, 2}')).toMatchObject({ ok: false, error: { line: 1, column: 12 } });
    expect(parseJson('{"a": 1')).toMatchObject({ ok: false, error: { line: 1, column: 8 } });
    expect(parseJson('[1] x')).toMatchObject({ ok: false, error: { line: 1, column: 5 } });
  });

  it('property: agrees with JSON.parse on valid JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v, null, 1);
        expect(parseJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      { numRuns: 100 },
    );
  });
});
