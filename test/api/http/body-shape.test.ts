import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkFormShape,
  checkJsonShape,
  MAX_BODY_DEPTH,
  MAX_BODY_FIELDS,
} from '../../../src/api/http/body-shape.js';
import { ApiError } from '../../../src/api/http/errors.js';
import { ROOT_A, setup } from '../harness.js';

/** Members and elements of a JSON value, and its depth, counted on the value itself. */
function reference(value: unknown): { fields: number; depth: number } {
  if (Array.isArray(value)) {
    const inner = value.map(reference);
    return {
      fields: value.length + inner.reduce((n, r) => n + r.fields, 0),
      depth: 1 + Math.max(0, ...inner.map((r) => r.depth)),
    };
  }
  if (value !== null && typeof value === 'object') {
    const inner = Object.values(value).map(reference);
    return {
      fields: inner.length + inner.reduce((n, r) => n + r.fields, 0),
      depth: 1 + Math.max(0, ...inner.map((r) => r.depth)),
    };
  }
  return { fields: 0, depth: 0 };
}

const refusal = (fn: () => void): ApiError | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
};

describe('body shape limits', () => {
  it('refuses exactly the JSON texts past the field or depth limit (against a reference count)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie('value'), { maxLength: 40 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 40 }),
      ),
    })).value;
    const deep = fc.integer({ min: 1, max: 40 }).map((n) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`));
    fc.assert(
      fc.property(fc.oneof(json, deep), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const ref = reference(value);
        const err = refusal(() => checkJsonShape(text));
        if (ref.depth > MAX_BODY_DEPTH) expect(err?.status).toBe(400);
        else if (ref.fields > MAX_BODY_FIELDS) expect(err?.status).toBe(413);
        else expect(err).toBeUndefined();
      }),
      { seed: 25, numRuns: 300 },
    );
  });

  it('counts form pairs', () => {
    expect(refusal(() => checkFormShape(Array(MAX_BODY_FIELDS).fill('a=1').join('&')))).toBeUndefined();
    expect(
      refusal(() =>
        checkFormShape(
          Array(MAX_BODY_FIELDS + 1)
            .fill('a=1')
            .join('&'),
        ),
      )?.status,
    ).toBe(413);
  });

  it('answers a form of 1,001 fields with 413 and a JSON body nested 33 deep with 400, naming the limit', async () => {
    const t = await setup();
    const form = (n: number) =>
      t.json(`${ROOT_A}/Calls.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: Array(n).fill('a').join('&'),
      });
    const over = await form(MAX_BODY_FIELDS + 1);
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('request body has more than 1000 fields');
    // At the limit the body reaches the handler, which names what is missing.
    const at = await form(MAX_BODY_FIELDS);
    expect(at.status).toBe(400);
    expect(at.body.message).toMatch(/From/);
    const deep = await t.json(`${ROOT_A}/Calls.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"To":${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe('request body is nested deeper than 32 levels');
    const many = await t.json(`${ROOT_A}/Calls.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"To":[${Array(MAX_BODY_FIELDS).fill('0').join(',')}]}`,
    });
    expect(many.status).toBe(413);
  });
});
