import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileProject, lintProject, unrunnablePatterns } from '../../src/designer/index.js';
import { loadProject } from '../../src/designer/load.js';
import {
  boundedRegexProblem,
  captureWhole,
  compileBounded,
  MAX_PATTERN_LENGTH,
  MAX_TEXT_LENGTH,
} from '../../src/designer/regex.js';
import { fullMatch } from '../../src/designer/steps/gather.js';

function controlProject(regex: string, text = '$core_From') {
  return {
    header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
    nodes: [
      {
        name: 'start',
        steps: [
          {
            kind: 'control',
            name: 'step1',
            conditions: [{ name: 'C1', operator: 'matches', matcher: { text, regex } }],
            conditionExpression: 'C1',
            actions: [{ name: 'A1', continueTo: { target: 'yes' } }],
          },
          { kind: 'say', name: 'step2', phrase: 'no' },
        ],
      },
      { name: 'yes', steps: [{ kind: 'say', name: 'step3', phrase: 'yes' }] },
    ],
  };
}

async function decide(regex: string, from: string) {
  const result = await compileProject(controlProject(regex)).render('', { From: from });
  return result.error ? result.error.code : (result.document.verbs[0] as { text: string }).text.trim();
}

describe('designer regexes on the bounded engine', () => {
  it('match whole texts as before, with RE2 syntax', async () => {
    expect(await decide('\\+1617\\d+', '+16175550100')).toBe('yes');
    expect(await decide('617', '+16175550100')).toBe('no');
    expect(fullMatch('[0-9]{4}', '1234')).toBe(true);
    expect(fullMatch('a|ab', 'ab')).toBe(true);
    expect(fullMatch('(?i)yes', 'YES')).toBe(true);
    const compiled = compileBounded('\\+1(\\d{3})(x)?\\d+');
    expect(compiled.ok && captureWhole(compiled.regex, '+16175550100')).toEqual([
      '+16175550100',
      '617',
      undefined,
    ]);
  });

  it('run (a+)+b on a long run of a in linear time: no match, no stall', async () => {
    expect(await decide('(a+)+b', 'a'.repeat(5000))).toBe('no');
    expect(fullMatch('(a|aa)+$', `${'a'.repeat(5000)}!`)).toBe(false);
  });

  it('refuse what RE2 cannot run: lookaround, backreferences, over-long patterns', async () => {
    for (const pattern of ['(?=1)\\d', '(?!x).', '(a)\\1', 'x'.repeat(MAX_PATTERN_LENGTH + 1)]) {
      expect(boundedRegexProblem(pattern)).toBeDefined();
      expect(fullMatch(pattern, '1')).toBe(false);
    }
    expect(boundedRegexProblem('(?=1)\\d')).toContain('RE2 syntax');
    // In a control step such a pattern fails the render, as an invalid one does.
    expect(await decide('(?=1)\\d+', '123')).toBe('designer.control');
  });

  it('never match text longer than the limit', () => {
    expect(fullMatch('a*', 'a'.repeat(MAX_TEXT_LENGTH))).toBe(true);
    expect(fullMatch('a*', 'a'.repeat(MAX_TEXT_LENGTH + 1))).toBe(false);
  });

  it('agree with JavaScript regexes on patterns both engines read (property)', () => {
    const atom = fc.constantFrom('a', 'b', '[ab]', '.', '\\d', '(a|b)', 'a?', 'b*', '(ab)+', '[^a]');
    fc.assert(
      fc.property(
        fc.array(atom, { minLength: 1, maxLength: 5 }),
        fc.stringMatching(/^[ab1]{0,8}$/),
        (atoms, text) => {
          const pattern = atoms.join('');
          expect(fullMatch(pattern, text)).toBe(new RegExp(`^(?:${pattern})$`).test(text));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('patterns the bounded engine cannot run', () => {
  it('are errors of rcml lint (lintProject), each with its JSON path', () => {
    const { diagnostics } = lintProject(controlProject('(?=1)\\d+'));
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'designer.invalid-regex',
        severity: 'error',
        path: 'nodes[0].steps[0].conditions[0].matcher.regex',
      }),
    ]);
    expect(lintProject(controlProject('\\d+')).diagnostics).toEqual([]);
  });

  it('are listed for the save path, with their paths', () => {
    const loaded = loadProject(controlProject('(a)\\1'));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(unrunnablePatterns(loaded.project)).toEqual([
      {
        path: 'nodes[0].steps[0].conditions[0].matcher.regex',
        message: expect.stringContaining('"(a)\\\\1"'),
      },
    ]);
  });
});
