import { describe, expect, it } from 'vitest';
import { compileProject, loadProject, ProjectError, upgradeProject } from '../../src/designer/index.js';

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
    expect(lines).toContain('nodes[1].steps[0].length: must be >= 1');
    expect(lines).toContain('nodes[1].name: duplicate module name "start"');
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
