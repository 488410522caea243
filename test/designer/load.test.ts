import { describe, expect, it } from 'vitest';
import {
  compileProject,
  FORMAT_VERSIONS,
  loadProject,
  ProjectError,
  upgradeProject,
} from '../../src/designer/index.js';

describe('loading and upgrades', () => {
  it('upgrades rvd714: header, steps map, flat gather and single dial', () => {
    const legacy = {
      startNodeName: 'start',
      activeNode: 0,
      lastStepId: 3,
      lastNodeId: 0,
      nodes: [
        {
          name: 'start',
          label: 'Welcome',
          steps: {
            step2: { kind: 'dial', name: 'step2', dialType: 'client', client: 'alice' },
            step1: {
              kind: 'gather',
              name: 'step1',
              gatherType: 'menu',
              mappings: [{ digits: 1, next: 'start' }],
              steps: [],
            },
          },
          stepnames: ['step1', 'step2'],
        },
      ],
    };
    const loaded = loadProject(legacy);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.fromVersion).toBe('rvd714');
    const [gather, dial] = loaded.project.nodes[0]?.steps ?? [];
    expect(gather).toMatchObject({ kind: 'gather', menu: { mappings: [{ digits: '1', next: 'start' }] } });
    expect(dial).toMatchObject({ kind: 'dial', dialNouns: [{ dialType: 'client', destination: 'alice' }] });
    expect(loaded.upgrades).toContain('nodes[0].steps: map + stepnames converted to an array');
    expect(loaded.upgrades).toContain('format version rvd714 -> 1.15');
  });

  it('1.x: menu digits become strings (1.6), conference status callbacks are dropped (1.15)', () => {
    const project = {
      header: { projectKind: 'voice', startNodeName: 'start', version: '1.2' },
      nodes: [
        {
          name: 'start',
          steps: [
            {
              kind: 'gather',
              name: 'step1',
              gatherType: 'menu',
              menu: { mappings: [{ digits: 2, next: 'start' }] },
            },
            {
              kind: 'dial',
              name: 'step2',
              dialNouns: [{ dialType: 'conference', destination: 'r', statusCallback: 'x', nextModule: 'y' }],
            },
          ],
        },
      ],
    };
    const { json, upgrades } = upgradeProject(project);
    expect(upgrades).toEqual([
      'nodes[0].steps[0].menu.mappings[0].digits: number -> string',
      'nodes[0].steps[1].dialNouns[0].statusCallback: dropped',
      'nodes[0].steps[1].dialNouns[0].nextModule: dropped',
      'format version 1.2 -> 1.15',
    ]);
    expect(project.nodes[0]?.steps[0]).toMatchObject({ menu: { mappings: [{ digits: 2 }] } });
    expect(JSON.stringify(json)).toContain('"digits":"2"');
  });

  it('rvd714 flat collect fields move to collectdigits with scope module', () => {
    const loaded = loadProject({
      startNodeName: 'main',
      nodes: [
        {
          name: 'main',
          steps: { s1: { kind: 'gather', name: 's1', collectVariable: 'pin', next: 'main', steps: [] } },
          stepnames: ['s1'],
        },
      ],
    });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.project.header.startNodeName).toBe('main');
    expect(loaded.project.nodes[0]?.steps[0]).toMatchObject({
      collectdigits: { collectVariable: 'pin', next: 'main', scope: 'module' },
    });
    expect(loaded.upgrades).toContain(
      'nodes[0].steps[0]: flat collect fields moved to collectdigits (scope module)',
    );
  });

  it('every format version loads, upgrades to 1.15 and renders', async () => {
    for (const version of FORMAT_VERSIONS.filter((v) => v !== 'rvd714')) {
      const before16 = FORMAT_VERSIONS.indexOf(version) < FORMAT_VERSIONS.indexOf('1.6');
      // Fields later versions added (ES timeout/httpHeaders, record media, noun callbacks) are absent.
      const json = {
        header: { projectKind: 'voice', startNodeName: 'start', version },
        nodes: [
          {
            name: 'start',
            steps: [
              {
                kind: 'gather',
                name: 'step1',
                gatherType: 'menu',
                menu: { mappings: [{ digits: before16 ? 1 : '1', next: 'start' }] },
                steps: [{ kind: 'say', name: 'step2', phrase: 'v$v' }],
              },
              { kind: 'record', name: 'step3', next: 'start' },
              { kind: 'dial', name: 'step4', dialNouns: [{ dialType: 'number', destination: '+1' }] },
              { kind: 'externalService', name: 'step5', url: 'http://x/', doRouting: false },
            ],
          },
        ],
      };
      const loaded = loadProject(json);
      expect(loaded.ok, `${version}: ${JSON.stringify(loaded)}`).toBe(true);
      if (!loaded.ok) continue;
      expect(loaded.fromVersion).toBe(version);
      expect(loaded.project.header.version).toBe('1.15');
      expect(loaded.upgrades.includes(`format version ${version} -> 1.15`)).toBe(version !== '1.15');
      expect(loaded.upgrades.some((u) => u.endsWith('digits: number -> string'))).toBe(before16);
      const app = compileProject(json, { fetch: async () => ({ status: 200, text: async () => '{}' }) });
      const result = await app.render('start.step1.handle', { Digits: '1', v: version });
      expect(result.document.verbs[0]).toMatchObject({ verb: 'Gather', prompts: [{ text: `v${version}` }] });
    }
  });

  it('reports every problem at once with its JSON path', () => {
    const result = loadProject({
      header: { version: '1.15' },
      nodes: [
        {
          name: 'start',
          steps: [
            { kind: 'say', name: 'step1' },
            { kind: 'teleport', name: 'step2' },
          ],
        },
        { name: 'start', steps: [{ kind: 'pause', name: 'step3', length: 0 }] },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const lines = result.problems.map((p) => `${p.path}: ${p.message}`);
    expect(lines).toContain('nodes[0].steps[0].phrase: required');
    expect(lines.some((l) => l.startsWith('nodes[0].steps[1].kind: unknown step kind "teleport"'))).toBe(
      true,
    );
    // A field the step can do without is set aside (a warning), not an error.
    expect(lines.some((l) => l.startsWith('nodes[1].steps[0]'))).toBe(false);
    expect(lines).toContain('nodes[1].name: duplicate module name "start"');
  });

  it('sets aside what it cannot use, with a warning naming the JSON path', () => {
    const result = loadProject({
      header: { version: '1.15', startNodeName: 'start' },
      nodes: [
        {
          name: 'start',
          steps: [
            { kind: 'pause', name: 'step1', length: 0 },
            { kind: 'say', name: 'step2', phrase: 'Hi', voice: 'alice', loop: 'often' },
            {
              kind: 'gather',
              name: 'step3',
              gatherType: 'menu',
              steps: [],
              invalidMessage: { kind: 'say', label: 'say', title: 'say', iface: {} },
              menu: { mappings: [{ digits: '1', next: 'start' }] },
            },
          ],
        },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings).toEqual([
      { path: 'nodes[0].steps[0].length', message: 'set aside, not used (must be >= 1)' },
      { path: 'nodes[0].steps[1].loop', message: expect.stringMatching(/^set aside, not used \(/) },
      {
        path: 'nodes[0].steps[2].invalidMessage',
        message: 'set aside, not used (required at nodes[0].steps[2].invalidMessage.phrase)',
      },
    ]);
    const steps = result.project.nodes[0]?.steps ?? [];
    // The voice is a string RCML accepts: passed through.
    expect(steps[1]).toMatchObject({ voice: 'alice' });
    expect(steps[2]).not.toHaveProperty('invalidMessage');
  });

  it('rejects unknown versions and non-objects without throwing', () => {
    expect(loadProject({ header: { version: '9.9' }, nodes: [] })).toMatchObject({
      ok: false,
      problems: [{ path: 'header.version' }],
    });
    expect(loadProject('nope')).toMatchObject({ ok: false, problems: [{ path: '$' }] });
    expect(loadProject({ header: { version: '1.15' } })).toMatchObject({
      ok: false,
      problems: [{ path: 'nodes' }],
    });
  });

  it('compileProject throws a ProjectError listing the problems; the app is immutable', () => {
    expect(() =>
      compileProject({
        header: { version: '1.15' },
        nodes: [{ name: 'a', steps: [{ kind: 'say', name: 's' }] }],
      }),
    ).toThrow(ProjectError);
    const app = compileProject({
      header: { version: '1.15' },
      nodes: [{ name: 'start', steps: [{ kind: 'say', name: 's', phrase: 'x' }] }],
    });
    expect(Object.isFrozen(app.project.nodes[0]?.steps[0])).toBe(true);
  });
});
