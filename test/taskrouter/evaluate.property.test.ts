import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Expression, Literal, Operand, Operator } from '../../src/taskrouter/ast.js';
import {
  evaluateExpression,
  matchesTargetWorkers,
  parseExpression,
  printExpression,
} from '../../src/taskrouter/index.js';

const runs = process.env.RCML_DEEP ? 20_000 : 1000;

/**
 * Reference semantics, written from the documented rules independently of the evaluator:
 * absent or null sides never match; arrays are equal item by item; ordering needs two numbers
 * or two strings; IN/NOT IN test the value (or any item of an array value) against a list.
 */
function resolve(o: Operand, attrs: Record<string, unknown>): unknown {
  if (o.kind === 'literal') return o.value;
  if (o.kind === 'list') return [...o.items];
  let at: unknown = attrs;
  for (const key of o.path) {
    const isRecord = typeof at === 'object' && at !== null && !Array.isArray(at);
    if (!isRecord || !Object.keys(at as object).includes(key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
function equal(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
  return true;
}
const inList = (list: unknown, x: unknown) => Array.isArray(list) && list.findIndex((y) => equal(x, y)) >= 0;
function holds(op: Operator, a: unknown, b: unknown): boolean {
  if (a == null || b == null) return false;
  if (op === '==') return equal(a, b);
  if (op === '!=') return !equal(a, b);
  if (op === 'HAS') return inList(a, b);
  if (op === 'CONTAINS')
    return typeof a === 'string' && typeof b === 'string' ? a.indexOf(b) >= 0 : inList(a, b);
  const isIn = Array.isArray(a) ? a.filter((x) => inList(b, x)).length > 0 : inList(b, a);
  if (op === 'IN') return isIn;
  if (op === 'NOT IN') return !isIn;
  const bothNumbers = typeof a === 'number' && typeof b === 'number';
  const bothStrings = typeof a === 'string' && typeof b === 'string';
  if (!bothNumbers && !bothStrings) return false;
  const cmp = (a as string | number) < (b as string | number) ? -1 : a === b ? 0 : 1;
  return op === '<' ? cmp < 0 : op === '<=' ? cmp <= 0 : op === '>' ? cmp > 0 : cmp >= 0;
}
function reference(e: Expression, attrs: Record<string, unknown>): boolean {
  if (e.kind === 'compare') return holds(e.op, resolve(e.left, attrs), resolve(e.right, attrs));
  const [l, r] = [reference(e.left, attrs), reference(e.right, attrs)];
  return e.kind === 'and' ? l && r : l || r;
}

const NAMES = ['skill', 'level', 'langs', 'team', 'info'];
// Small pools, so that equal, ordered and contained values meet often.
const str = fc.constantFrom('', 'a', 'ab', 'B');
const num = fc.integer({ min: -1, max: 1 });
const literal: fc.Arbitrary<Literal> = fc.oneof(str, num, fc.boolean());
const scalarValue = fc.oneof(str, num, fc.boolean(), fc.constant(null));
const attrValue = fc.oneof(scalarValue, fc.array(fc.oneof(str, num), { maxLength: 3 }));
const attributes: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...NAMES), attrValue),
    fc.dictionary(fc.constantFrom(...NAMES), attrValue),
  )
  .map(([top, info]) => ({ ...top, info }));
const operand: fc.Arbitrary<Operand> = fc.oneof(
  { arbitrary: literal.map((value) => ({ kind: 'literal' as const, value })), weight: 3 },
  literal.map((value) => ({ kind: 'literal' as const, value })),
  fc.array(literal, { minLength: 1, maxLength: 3 }).map((items) => ({ kind: 'list' as const, items })),
  fc.constantFrom(...NAMES).map((n) => ({ kind: 'path' as const, path: [n] })),
  fc.constantFrom(...NAMES).map((n) => ({ kind: 'path' as const, path: ['info', n] })),
);
const operator = fc.constantFrom<Operator>(
  '==',
  '!=',
  '>',
  '<',
  '>=',
  '<=',
  'IN',
  'NOT IN',
  'CONTAINS',
  'HAS',
);
const { expression } = fc.letrec<{ expression: Expression }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('compare' as const), op: operator, left: operand, right: operand }),
    fc.record({
      kind: fc.constantFrom('and' as const, 'or' as const),
      left: tie('expression'),
      right: tie('expression'),
    }),
  ),
}));

describe('targetWorkers evaluator against a reference evaluator', () => {
  it('agrees on every expression and worker, also after printing and parsing back', () => {
    fc.assert(
      fc.property(expression, attributes, (e, attrs) => {
        const text = printExpression(e);
        expect(parseExpression(text)).toEqual(e);
        const expected = reference(e, attrs);
        expect(evaluateExpression(e, attrs)).toBe(expected);
        expect(matchesTargetWorkers(text, attrs)).toBe(expected);
      }),
      { numRuns: runs },
    );
  });
});
