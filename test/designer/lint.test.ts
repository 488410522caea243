import { describe, expect, it } from 'vitest';
import { lintProject } from '../../src/designer/index.js';
import { fixture } from './helpers.js';

const project = {
  header: { version: '1.15', startNodeName: 'start' },
  nodes: [
    {
      name: 'start',
      steps: [
        {
          kind: 'gather',
          name: 'step1',
          gatherType: 'menu',
          menu: {
            mappings: [
              { digits: '1', next: 'ghost' },
              { digits: '1', next: 'start' },
            ],
            speechMappings: [{ key: '(unclosed', next: 'start' }],
          },
        },
        { kind: 'gather', name: 'step2', gatherType: 'menu', menu: { mappings: [] } },
        { kind: 'say', name: 'step3', phrase: 'Hi $nobody $core_From $pin $sticky_pin $core_x_team' },
        {
          kind: 'gather',
          name: 'step4',
          gatherType: 'collectdigits',
          collectdigits: { collectVariable: 'pin', next: 'start', scope: 'module' },
          validation: { regexPattern: '[a-' },
        },
      ],
    },
    { name: 'island', steps: [{ kind: 'hungup', name: 'step5' }] },
  ],
};

describe('lintProject', () => {
  it('finds each kind of problem with its JSON path', () => {
    const { diagnostics } = lintProject(project);
    const found = diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'error designer.dangling-target nodes[0].steps[0].menu.mappings[0].next',
        'warning designer.duplicate-digits nodes[0].steps[0].menu.mappings[1].digits',
        'error designer.invalid-regex nodes[0].steps[0].menu.speechMappings[0].key',
        'warning designer.gather-no-exit nodes[0].steps[1]',
        'warning designer.unknown-variable nodes[0].steps[2].phrase',
        'error designer.invalid-regex nodes[0].steps[3].validation.regexPattern',
        'warning designer.unreachable-module nodes[1]',
      ]),
    );
    expect(diagnostics.filter((d) => d.code === 'designer.unknown-variable')).toHaveLength(1);
    expect(diagnostics).toHaveLength(7);
  });

  it('a clean project has no findings; an invalid one reports load problems as errors', () => {
    expect(lintProject(fixture('gather-collect')).diagnostics).toEqual([]);
    expect(
      lintProject({
        header: { version: '1.15' },
        nodes: [{ name: 'start', steps: [{ kind: 'say', name: 's' }] }],
      }).diagnostics,
    ).toEqual([
      {
        code: 'designer.invalid-project',
        severity: 'error',
        path: 'nodes[0].steps[0].phrase',
        message: 'required',
      },
    ]);
  });

  it('knownVariables silences parameters set outside the steps', () => {
    const json = fixture('play');
    expect(lintProject(json).diagnostics.map((d) => d.code)).toEqual(['designer.unknown-variable']);
    expect(lintProject(json, { knownVariables: ['name'] }).diagnostics).toEqual([]);
  });
});
