import type { Expression, Literal, Operand } from './ast.js';
import { parseExpression } from './parse.js';

/**
 * Evaluation rules: a path reads nested attributes (undefined when absent); any comparison with
 * an undefined side is false (so is `!=`); `==`/`!=` compare scalars strictly and arrays item
 * by item; `>`, `<`, `>=`, `<=` compare two numbers or two strings, else false; `x IN list` is
 * true when x (or, for an array x, any of its items) is in the list, `NOT IN` its negation for a
 * defined x; `HAS` is array membership; `CONTAINS` is array membership or, on two strings, a
 * substring test.
 */
type Value = Literal | Literal[] | Record<string, unknown> | undefined | null | unknown[];

function operandValue(o: Operand, attrs: Record<string, unknown>): Value {
  if (o.kind === 'literal') return o.value;
  if (o.kind === 'list') return o.items;
  let v: unknown = attrs;
  for (const key of o.path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v as Value;
}

const same = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => same(x, b[i])) : a === b;

const member = (list: unknown, x: unknown) => Array.isArray(list) && list.some((y) => same(x, y));

function compare(op: string, a: Value, b: Value): boolean {
  if (a === undefined || b === undefined || a === null || b === null) return false;
  switch (op) {
    case '==':
      return same(a, b);
    case '!=':
      return !same(a, b);
    case '>':
    case '<':
    case '>=':
    case '<=': {
      if (
        !(
          (typeof a === 'number' && typeof b === 'number') ||
          (typeof a === 'string' && typeof b === 'string')
        )
      ) {
        return false;
      }
      return op === '>' ? a > b : op === '<' ? a < b : op === '>=' ? a >= b : a <= b;
    }
    case 'IN':
      return Array.isArray(a) ? a.some((x) => member(b, x)) : member(b, a);
    case 'NOT IN':
      return !compare('IN', a, b);
    case 'HAS':
      return member(a, b);
    default:
      return typeof a === 'string' && typeof b === 'string' ? a.includes(b) : member(a, b);
  }
}

/** Evaluates a parsed expression against a worker's attributes. */
export function evaluateExpression(e: Expression, attrs: Record<string, unknown>): boolean {
  if (e.kind !== 'compare') {
    const left = evaluateExpression(e.left, attrs);
    return e.kind === 'and'
      ? left && evaluateExpression(e.right, attrs)
      : left || evaluateExpression(e.right, attrs);
  }
  return compare(e.op, operandValue(e.left, attrs), operandValue(e.right, attrs));
}

/** Whether a worker with these attributes matches a `targetWorkers` expression (parsed here). */
export function matchesTargetWorkers(expression: string, attrs: Record<string, unknown>): boolean {
  return evaluateExpression(parseExpression(expression), attrs);
}
