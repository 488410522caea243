import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProject, lintProject, loadProject } from '../../src/designer/index.js';
import { parseRcml } from '../../src/rcml/parse.js';

const root = '/work/shared/fixtures/rvd';

function statesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...statesUnder(path));
    else if (name === 'state') out.push(path);
  }
  return out.sort();
}

const answer = JSON.stringify({ firstname: 'Ann', lastname: 'Lee', nextModule: 'Members' });

describe.skipIf(!existsSync(root))('the platform corpus of projects', () => {
  const states = existsSync(root) ? statesUnder(root) : [];

  it('finds the corpus', () => {
    expect(states.length).toBeGreaterThanOrEqual(10);
  });

  it.each(states.map((s) => [s.slice(root.length + 1), s]))(
    '%s loads, lints and renders every module',
    async (_, path) => {
      const json = JSON.parse(readFileSync(path, 'utf8'));
      const loaded = loadProject(json);
      expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
      if (!loaded.ok) return;
      expect(loaded.fromVersion).toBe(json.header?.version ?? 'rvd714');
      expect(loaded.project.header.version).toBe('1.15');
      expect(() => lintProject(json)).not.toThrow();
      const app = compileProject(json, {
        esBaseUrl: 'http://127.0.0.1/',
        fetch: async () => ({ status: 200, text: async () => answer }),
      });
      for (const node of app.project.nodes) {
        const result = await app.render(node.name, { From: '+1555', To: '+1666', Body: 'hi' });
        expect(result.error, `${node.name}: ${result.error?.message}`).toBeUndefined();
        const parsed = parseRcml(result.xml);
        expect(parsed.ok, `${node.name}: ${JSON.stringify(parsed.diagnostics)}`).toBe(true);
        // Every gather answer (valid or not) renders a document too.
        for (const step of node.steps.filter((s) => s.kind === 'gather')) {
          const answer = await app.render(`${node.name}.${step.name}.handle`, { Digits: '1' });
          expect(answer.error, `${node.name}.${step.name}: ${answer.error?.message}`).toBeUndefined();
          expect(parseRcml(answer.xml).ok).toBe(true);
        }
      }
    },
  );

  it('renders the same modules as the original build (data/*.mod)', () => {
    const withData = states.filter((s) => existsSync(join(s, '..', 'data')));
    expect(withData.length).toBeGreaterThan(0);
    for (const state of withData) {
      const loaded = loadProject(JSON.parse(readFileSync(state, 'utf8')));
      if (!loaded.ok) throw new Error(state);
      const data = join(state, '..', 'data');
      const built = JSON.parse(readFileSync(join(data, 'project'), 'utf8'));
      expect(built.defaultTarget).toBe(loaded.project.header.startNodeName);
      for (const file of readdirSync(data).filter((f) => f.endsWith('.mod'))) {
        const mod = JSON.parse(readFileSync(join(data, file), 'utf8'));
        const node = loaded.project.nodes.find((n) => n.name === mod.name);
        expect(node?.label).toBe(mod.label);
        expect(node?.steps.map((s) => `${s.kind}:${s.name}`)).toEqual(
          mod.steps.map((s: { kind: string; name: string }) => `${s.kind}:${s.name}`),
        );
      }
    }
  });

  it('the customer-id demo routes through its external service to the labelled module', async () => {
    const state = states.find((s) => s.includes('AP81cf45088cba4abcac1261385916d582'));
    if (!state) throw new Error('demo missing');
    const app = compileProject(JSON.parse(readFileSync(state, 'utf8')), {
      esBaseUrl: 'http://127.0.0.1:8080/',
      fetch: async (url) => {
        expect(url).toBe('http://127.0.0.1:8080/RvdExternalServicesDemo/userDetails.json?customerId=42');
        return { status: 200, text: async () => answer };
      },
    });
    const result = await app.render('start.step4.handle', { Digits: '42' });
    expect(result.document.verbs).toEqual([{ verb: 'Say', text: 'Welcome back Ann Lee' }]);
  });
});
