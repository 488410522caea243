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

describe('module labels in the graph', () => {
  const hostile =
    'Sales"]\n  m0 --> m0\n  classDef missing fill:url(#x)\r\n  click m0 "javascript:alert(1)" <b>#1</b> `md`';

  it('cannot write Mermaid statements of their own: line breaks and quotes become entity codes', () => {
    const text = graphOf({
      header: { version: '1.15', startNodeName: 'start' },
      nodes: [
        { name: 'start', label: hostile, steps: [{ kind: 'redirect', name: 's1', next: 'other' }] },
        { name: 'other', label: 'plain', steps: [{ kind: 'hungup', name: 's2' }] },
      ],
    });
    const lines = text.trimEnd().split('\n');
    expect(lines).toEqual([
      'flowchart TD',
      expect.stringMatching(
        /^ {2}m0\(\["Sales#quot;\]#10; {2}m0 --#gt; m0#10; {2}classDef missing fill:url\(#35;x\)#13;#10; {2}click m0 #quot;javascript:alert\(1\)#quot; #lt;b#gt;#35;1#lt;\/b#gt; #96;md#96; \(start\)"\]\)$/,
      ),
      '  m1["plain (other)"]',
      '  m0 -->|"redirect"| m1',
    ]);
  });

  it('read back by the console as written, with no other node or edge', async () => {
    // The console's front end is typed against the DOM, apart from this project's sources.
    const frontEnd = '../../src/console/app/graph.js';
    const { parseFlowchart } = (await import(/* @vite-ignore */ frontEnd)) as {
      parseFlowchart(text: string): {
        nodes: Map<string, { label: string }>;
        edges: unknown[];
        classes: Map<string, unknown>;
      };
    };
    const chart = parseFlowchart(
      graphOf({
        header: { version: '1.15', startNodeName: 'start' },
        nodes: [{ name: 'start', label: hostile, steps: [{ kind: 'hungup', name: 's1' }] }],
      }),
    );
    expect([...chart.nodes.values()].map((n) => n.label)).toEqual([`${hostile} (start)`]);
    expect(chart.edges).toEqual([]);
    expect(chart.classes.size).toBe(0);
  });
});
