import { describe, expect, it } from 'vitest';
import { compileProject } from '../../src/designer/index.js';
import { verbs } from './helpers.js';

function controlProject(conditions: unknown[], expression: string, actions: unknown[]) {
  return {
    header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
    nodes: [
      {
        name: 'start',
        steps: [
          { kind: 'control', name: 'step1', conditions, conditionExpression: expression, actions },
          { kind: 'say', name: 'step2', phrase: 'no' },
        ],
      },
      { name: 'yes', steps: [{ kind: 'say', name: 'step3', phrase: 'yes $v' }] },
    ],
  };
}

const cond = (name: string, operator: string, a: string, b: string, type = 'text') => ({
  name,
  operator,
  comparison: { operand1: a, operand2: b, type },
});
const go = [{ name: 'A', continueTo: { target: 'yes' } }];

async function decide(conditions: unknown[], expression: string, params: Record<string, string> = {}) {
  const result = await compileProject(controlProject(conditions, expression, go)).render('', params);
  return (result.document.verbs[0] as { text: string }).text.trim();
}

describe('control step', () => {
  it('assigns, captures and continues to a module when the conditions hold', async () => {
    expect(await verbs('control', '', { amount: '150', From: '+1617555' })).toEqual([
      { verb: 'Say', text: 'Big big-150 617' },
    ]);
    expect(await verbs('control', '', { amount: '50', From: '+1617555' })).toEqual([
      { verb: 'Say', text: 'Small' },
    ]);
  });

  it('compares numerically or as text', async () => {
    expect(await decide([cond('C1', 'greater', '10', '9', 'numeric')], 'C1')).toBe('yes');
    expect(await decide([cond('C1', 'greater', '10', '9', 'text')], 'C1')).toBe('no');
    expect(await decide([cond('C1', 'lessEqual', '$n', '3', 'numeric')], 'C1', { n: '3' })).toBe('yes');
    expect(await decide([cond('C1', 'equals', 'abc', 'abc')], 'C1')).toBe('yes');
    expect(await decide([cond('C1', 'notequal', 'abc', 'abc')], 'C1')).toBe('no');
    expect(await decide([cond('C1', 'greater', 'x', '1', 'numeric')], 'C1')).toBe('no');
  });

  it('combines conditions strictly left to right', async () => {
    const t = cond('T', 'equals', 'a', 'a');
    const f = cond('F', 'equals', 'a', 'b');
    // (T OR F) AND F = false; with precedence it would be T OR (F AND F) = true.
    expect(await decide([t, f], 'T OR F AND F')).toBe('no');
    expect(await decide([t, f], 'F AND F OR T')).toBe('yes');
  });

  it('matches a regex against the whole text', async () => {
    const m = (regex: string) => ({ name: 'M', operator: 'matches', matcher: { text: '$x', regex } });
    expect(await decide([m('\\d+')], 'M', { x: '123' })).toBe('yes');
    expect(await decide([m('\\d+')], 'M', { x: 'a123' })).toBe('no');
  });
});
