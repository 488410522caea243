import { describe, expect, it } from 'vitest';
import {
  ExpressionError,
  matchesTargetWorkers,
  parseExpression,
  printExpression,
} from '../../src/taskrouter/index.js';

const errorOf = (src: string) => {
  try {
    parseExpression(src);
  } catch (err) {
    if (err instanceof ExpressionError) return { column: err.column, message: err.message };
    throw err;
  }
  throw new Error(`parsed: ${src}`);
};

describe('targetWorkers parser', () => {
  it('parses comparisons of paths, numbers, strings, booleans and lists', () => {
    expect(parseExpression('worker.skill.level >= -2.5')).toEqual({
      kind: 'compare',
      op: '>=',
      left: { kind: 'path', path: ['worker', 'skill', 'level'] },
      right: { kind: 'literal', value: -2.5 },
    });
    expect(parseExpression('lang not in [\'en\', "fr", 3, true]')).toEqual({
      kind: 'compare',
      op: 'NOT IN',
      left: { kind: 'path', path: ['lang'] },
      right: { kind: 'list', items: ['en', 'fr', 3, true] },
    });
    expect(parseExpression('a = 1')).toMatchObject({ op: '==' });
    expect(parseExpression('name == "say \\"hi\\""')).toMatchObject({ right: { value: 'say "hi"' } });
    for (const op of ['==', '!=', '>', '<', '>=', '<=', 'IN', 'CONTAINS', 'HAS']) {
      expect(parseExpression(`x ${op} 1`)).toMatchObject({ op });
    }
  });

  it('binds AND tighter than OR, left to right, with parentheses overriding', () => {
    expect(printExpression(parseExpression('a == 1 OR b == 2 AND c == 3'))).toBe(
      '(a == 1 OR (b == 2 AND c == 3))',
    );
    expect(printExpression(parseExpression('(a == 1 || b == 2) && c == 3'))).toBe(
      '((a == 1 OR b == 2) AND c == 3)',
    );
    expect(printExpression(parseExpression('a == 1 and b == 2 and c == 3'))).toBe(
      '((a == 1 AND b == 2) AND c == 3)',
    );
  });

  it('names the column of each syntax error', () => {
    expect(errorOf('')).toEqual({
      column: 1,
      message: 'expected a number, string or boolean, found end of expression at column 1',
    });
    expect(errorOf('skill ==')).toEqual({
      column: 9,
      message: 'expected a number, string or boolean, found end of expression at column 9',
    });
    expect(errorOf('skill # 1')).toEqual({ column: 7, message: "unexpected character '#' at column 7" });
    expect(errorOf('name == "abc')).toEqual({ column: 9, message: 'unterminated string at column 9' });
    expect(errorOf('a NOT 1').column).toBe(7);
    expect(errorOf('a NOT 1').message).toContain("expected 'IN' after 'NOT'");
    expect(errorOf('(a == 1').message).toBe("expected ')', found end of expression at column 8");
    expect(errorOf('a == 1 b == 2').message).toBe(
      "expected 'AND', 'OR' or the end of the expression, found 'b' at column 8",
    );
    expect(errorOf('a IN [1, 2').column).toBe(11);
    expect(errorOf('a IN []').message).toBe("expected a number, string or boolean, found ']' at column 7");
    expect(errorOf('a. == 1').message).toBe("expected an attribute name, found '==' at column 4");
    expect(errorOf('a b').message).toContain('expected a comparison operator');
    expect(errorOf('a == 1 AND').column).toBe(11);
  });

  it('evaluates against worker attributes', () => {
    const worker = { skills: ['sales', 'billing'], level: 3, lang: 'en-GB', info: { team: 'east' } };
    expect(matchesTargetWorkers('1==1', worker)).toBe(true);
    expect(matchesTargetWorkers('skills HAS "billing" AND level >= 3', worker)).toBe(true);
    expect(matchesTargetWorkers('skills HAS "support" OR level < 3', worker)).toBe(false);
    expect(matchesTargetWorkers('lang CONTAINS "en"', worker)).toBe(true);
    expect(matchesTargetWorkers('info.team IN ["east", "west"]', worker)).toBe(true);
    expect(matchesTargetWorkers('info.team NOT IN ["east"]', worker)).toBe(false);
    expect(matchesTargetWorkers('missing != 1', worker)).toBe(false);
    expect(matchesTargetWorkers('level > "2"', worker)).toBe(false);
  });
});
