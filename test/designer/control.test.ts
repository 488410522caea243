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
  });

  it('a numeric comparison with an empty or non-numeric operand fails the render (Hangup)', async () => {
    for (const [a, b] of [
      ['x', '1'],
      ['', '1'],
      ['1', ' '],
    ] as const) {
      const result = await compileProject(
        controlProject([cond('C1', 'greater', a, b, 'numeric')], 'C1', go),
      ).render();
      expect(result.document.verbs).toEqual([{ verb: 'Hangup' }]);
      expect(result.error?.code).toBe('designer.control');
    }
    // Java float parsing: suffixes, surrounding blanks and single precision.
    expect(await decide([cond('C1', 'equals', ' 2.5f ', '2.50', 'numeric')], 'C1')).toBe('yes');
    expect(await decide([cond('C1', 'equals', '16777217', '16777216', 'numeric')], 'C1')).toBe('yes');
  });

  it('text lessEqual means less or equal (the platform acts as greaterEqual: not copied)', async () => {
    expect(await decide([cond('C1', 'lessEqual', 'a', 'b')], 'C1')).toBe('yes');
    expect(await decide([cond('C1', 'lessEqual', 'b', 'a')], 'C1')).toBe('no');
  });

  it('combines conditions strictly left to right', async () => {
    const t = cond('C1', 'equals', 'a', 'a');
    const f = cond('C2', 'equals', 'a', 'b');
    // (T OR F) AND F = false; with precedence it would be T OR (F AND F) = true.
    expect(await decide([t, f], 'C1 OR C2 AND C2')).toBe('no');
    expect(await decide([t, f], 'C2 AND C2 OR C1')).toBe('yes');
    // Evaluation stops once the result is known: a failing condition after it is not reached.
    const broken = cond('C3', 'greater', 'x', '1', 'numeric');
    expect(await decide([t, f, broken], 'C2 AND C3')).toBe('no');
    // No expression: the actions run whatever the conditions say.
    const noExpression = controlProject([f], '', go) as { nodes: { steps: Record<string, unknown>[] }[] };
    delete noExpression.nodes[0]?.steps[0]?.conditionExpression;
    const r = await compileProject(noExpression).render();
    expect((r.document.verbs[0] as { text: string }).text.trim()).toBe('yes');
  });

  it('matches a regex against the whole text', async () => {
    const m = (regex: string) => ({ name: 'C1', operator: 'matches', matcher: { text: '$x', regex } });
    expect(await decide([m('\\d+')], 'C1', { x: '123' })).toBe('yes');
    expect(await decide([m('\\d+')], 'C1', { x: 'a123' })).toBe('no');
    // The regex is used as written: `$x` there is an end anchor and a letter, not a variable.
    expect(await decide([m('1$x')], 'C1', { x: '1' })).toBe('no');
  });

  it('capture takes group 1 of a whole match; no match leaves the variable; no group fails', async () => {
    const project = (regex: string) => ({
      header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
      nodes: [
        {
          name: 'start',
          steps: [
            {
              kind: 'control',
              name: 'step1',
              conditions: [],
              actions: [
                { name: 'A1', assign: { expression: 'old', varName: 'v', varScope: 'mod' } },
                { name: 'A2', capture: { regex, data: '$x', varName: 'v', varScope: 'mod' } },
              ],
            },
            { kind: 'say', name: 'step2', phrase: '[$v] [$module_v] [$sticky_v]' },
          ],
        },
      ],
    });
    const said = async (regex: string, x: string) =>
      (await compileProject(project(regex)).render('', { x })).document.verbs[0];
    expect(await said('a(\\d+)', 'a12')).toEqual({ verb: 'Say', text: '[12] [12] []' });
    expect(await said('(\\d+)', 'a12')).toEqual({ verb: 'Say', text: '[old] [old] []' });
    expect(await said('\\d+', '12')).toEqual({ verb: 'Hangup' });
  });
});
