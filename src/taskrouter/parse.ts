/**
 * Parser of `targetWorkers` expressions. Hand-written recursive descent: the grammar is eight
 * rules, and a hand-written parser gives exact positions and messages without a generated
 * file or a build step.
 *
 *   or      := and (('OR' | '||') and)*
 *   and     := primary (('AND' | '&&') primary)*
 *   primary := '(' or ')' | operand op operand
 *   op      := '==' | '=' | '!=' | '>=' | '<=' | '>' | '<' | 'IN' | 'NOT' 'IN' | 'CONTAINS' | 'HAS'
 *   operand := number | string | 'true' | 'false' | '[' literal (',' literal)* ']' | path
 *   path    := name ('.' name)*          name := [A-Za-z_][A-Za-z0-9_-]*
 *
 * Keywords ignore case; strings take single or double quotes with backslash escapes.
 */
import type { Expression, Literal, Operand, Operator } from './ast.js';

/** A syntax error at a 1-based column of the expression. */
export class ExpressionError extends Error {
  constructor(
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${reason} at column ${column}`);
    this.name = 'ExpressionError';
  }
}

type Token =
  | { t: 'num'; v: number; at: number }
  | { t: 'str'; v: string; at: number }
  | { t: 'word'; v: string; at: number }
  | { t: 'sym'; v: string; at: number }
  | { t: 'end'; at: number };

const SYMBOLS = ['==', '!=', '>=', '<=', '&&', '||', '=', '>', '<', '(', ')', '[', ']', ',', '.'];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num && (c !== '-' || /\d/.test(src[i + 1] ?? ''))) {
      out.push({ t: 'num', v: Number(num[0]), at: i });
      i += num[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let v = '';
      let j = i + 1;
      for (; j < src.length && src[j] !== c; j++) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        v += src[j];
      }
      if (j >= src.length) throw new ExpressionError(i + 1, 'unterminated string');
      out.push({ t: 'str', v, at: i });
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i));
    if (word) {
      out.push({ t: 'word', v: word[0], at: i });
      i += word[0].length;
      continue;
    }
    const sym = SYMBOLS.find((s) => src.startsWith(s, i));
    if (!sym) throw new ExpressionError(i + 1, `unexpected character '${c}'`);
    out.push({ t: 'sym', v: sym, at: i });
    i += sym.length;
  }
  out.push({ t: 'end', at: src.length });
  return out;
}

const KEYWORDS = new Set(['AND', 'OR', 'IN', 'NOT', 'CONTAINS', 'HAS']);
const isWord = (tok: Token, w: string) => tok.t === 'word' && tok.v.toUpperCase() === w;
const describe = (tok: Token) => (tok.t === 'end' ? 'end of expression' : `'${'v' in tok ? tok.v : ''}'`);

/** Parses an expression; throws {@link ExpressionError} naming the column of the problem. */
export function parseExpression(src: string): Expression {
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const fail = (what: string): never => {
    throw new ExpressionError(peek().at + 1, `expected ${what}, found ${describe(peek())}`);
  };

  const literal = (): Literal => {
    const tok = peek();
    if (tok.t === 'num' || tok.t === 'str') {
      p++;
      return tok.v;
    }
    if (isWord(tok, 'TRUE') || isWord(tok, 'FALSE')) {
      p++;
      return isWord(tok, 'TRUE');
    }
    return fail('a number, string or boolean');
  };

  const operand = (): Operand => {
    const tok = peek();
    if (tok.t === 'sym' && tok.v === '[') {
      p++;
      const items = [literal()];
      while (peek().t === 'sym' && (peek() as { v: string }).v === ',') {
        p++;
        items.push(literal());
      }
      if (!(peek().t === 'sym' && (peek() as { v: string }).v === ']')) fail("',' or ']'");
      p++;
      return { kind: 'list', items };
    }
    if (
      tok.t === 'word' &&
      !KEYWORDS.has(tok.v.toUpperCase()) &&
      !isWord(tok, 'TRUE') &&
      !isWord(tok, 'FALSE')
    ) {
      const path = [tok.v];
      p++;
      while (peek().t === 'sym' && (peek() as { v: string }).v === '.') {
        p++;
        const next = peek();
        if (next.t !== 'word') fail('an attribute name');
        path.push((next as { v: string }).v);
        p++;
      }
      return { kind: 'path', path };
    }
    return { kind: 'literal', value: literal() };
  };

  const operator = (): Operator => {
    const tok = peek();
    if (tok.t === 'sym' && ['==', '=', '!=', '>=', '<=', '>', '<'].includes(tok.v)) {
      p++;
      return (tok.v === '=' ? '==' : tok.v) as Operator;
    }
    for (const w of ['IN', 'CONTAINS', 'HAS'] as const) {
      if (isWord(tok, w)) {
        p++;
        return w;
      }
    }
    if (isWord(tok, 'NOT')) {
      p++;
      if (!isWord(peek(), 'IN')) fail("'IN' after 'NOT'");
      p++;
      return 'NOT IN';
    }
    return fail('a comparison operator (==, !=, >, <, >=, <=, IN, NOT IN, CONTAINS, HAS)');
  };

  const primary = (): Expression => {
    const tok = peek();
    if (tok.t === 'sym' && tok.v === '(') {
      p++;
      const inner = or();
      if (!(peek().t === 'sym' && (peek() as { v: string }).v === ')')) fail("')'");
      p++;
      return inner;
    }
    const left = operand();
    const op = operator();
    return { kind: 'compare', op, left, right: operand() };
  };

  const chain = (kind: 'and' | 'or', word: string, sym: string, next: () => Expression) => (): Expression => {
    let left = next();
    while (isWord(peek(), word) || (peek().t === 'sym' && (peek() as { v: string }).v === sym)) {
      p++;
      left = { kind, left, right: next() };
    }
    return left;
  };
  const and = chain('and', 'AND', '&&', primary);
  const or = chain('or', 'OR', '||', and);

  const result = or();
  if (peek().t !== 'end') fail("'AND', 'OR' or the end of the expression");
  return result;
}
