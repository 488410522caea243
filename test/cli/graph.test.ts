import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { graphCommand } from '../../src/cli/commands/graph.js';

const fixtures = fileURLToPath(new URL('../../fixtures/designer/', import.meta.url));

describe('rcml graph', () => {
  it('prints Mermaid flowchart text', async () => {
    const out = await graphCommand(`${fixtures}external-service.json`);
    expect(out.exitCode).toBe(0);
    expect(out.stdout.startsWith('flowchart TD\n')).toBe(true);
    expect(out.stdout).toContain('m0 -->|"ES = gold"| m1');
    expect(out.stdout).toContain('m0 -->|"ES error"| m3');
  });

  it('exit 1 with JSON paths for an invalid project', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rcml-graph-')), 'p.json');
    writeFileSync(file, JSON.stringify({ header: { version: '1.15' }, nodes: [{ steps: [] }] }));
    const out = await graphCommand(file);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr.startsWith(`${file}: nodes[0].name: `), out.stderr).toBe(true);
  });

  it('exit 2 on an unreadable file', async () => {
    expect((await graphCommand('/nonexistent/p.json')).exitCode).toBe(2);
  });
});
