import type { Expression, Literal, Operand } from './ast.js';

const lit = (v: Literal) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const operand = (o: Operand) =>
  o.kind === 'literal'
    ? lit(o.value)
    : o.kind === 'list'
      ? `[${o.items.map(lit).join(', ')}]`
      : o.path.join('.');

/** Writes an expression back as text, fully parenthesised (parses to the same tree). */
export function printExpression(e: Expression): string {
  if (e.kind === 'compare') return `${operand(e.left)} ${e.op} ${operand(e.right)}`;
  return `(${printExpression(e.left)} ${e.kind.toUpperCase()} ${printExpression(e.right)})`;
}
