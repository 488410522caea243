import { describe, expect, it } from 'vitest';
import { loadProject, projectGraph } from '../../src/designer/index.js';
import { fixture } from './helpers.js';

function graphOf(json: unknown): string {
  const loaded = loadProject(json);
  if (!loaded.ok) throw new Error('fixture does not load');
  return projectGraph(loaded.project);
}

describe('projectGraph', () => {
  it('draws modules and edges labelled by digits, speech keys and dial outcome', () => {
    expect(graphOf(fixture('gather-menu'))).toBe(
      [
        'flowchart TD',
        '  m0(["Welcome (start)"])',
        '  m1["Done (module1)"]',
        '  m2["Two (module2)"]',
        '  m0 -->|"1"| m1',
        '  m0 -->|"2"| m2',
        '  m0 -->|"speech: sales|buy"| m1',
        '',
      ].join('\n'),
    );
    expect(graphOf(fixture('dial'))).toContain('m0 -->|"dial outcome"| m1');
  });

  it('marks missing targets and run-time routing', () => {
    const text = graphOf({
      header: { version: '1.15' },
      nodes: [
        {
          name: 'start',
          steps: [
            { kind: 'redirect', name: 's1', next: 'gone' },
            {
              kind: 'externalService',
              name: 's2',
              url: 'http://x',
              doRouting: true,
              nextType: 'responseBased',
            },
          ],
        },
      ],
    });
    expect(text).toContain('x0["missing: gone"]');
    expect(text).toContain('m0 -.->|"ES response"| dyn');
    expect(text).toContain('class x0 missing');
  });
});
