import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileProject } from '../../src/designer/index.js';
import type { RcmlDocument } from '../../src/rcml/model.js';
import { parseRcml } from '../../src/rcml/parse.js';
import { arbitraryProject } from '../../src/testing.js';

const runs = process.env.RCML_DEEP ? 1000 : 60;

/** Every controller link of a document (actions, noun URLs, redirects). */
function linksOf(doc: RcmlDocument): string[] {
  const out: string[] = [];
  const add = (url: string | undefined) => {
    if (url?.startsWith('controller?')) out.push(url);
  };
  for (const v of doc.verbs) {
    if ('action' in v) add(v.action);
    if (v.verb === 'Redirect') add(v.url);
    if (v.verb === 'Dial') {
      for (const n of v.nouns) {
        if ('url' in n) add(n.url);
        if ('statusCallback' in n) add(n.statusCallback);
        if ('waitUrl' in n) add(n.waitUrl);
      }
    }
  }
  return out;
}

describe('property: arbitrary valid projects', () => {
  it('every target renders valid RCML whose links name existing modules', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryProject(), fc.constantFrom('1', '12', '#', ''), async (json, digits) => {
        const app = compileProject(json);
        const modules = new Set(app.project.nodes.map((n) => n.name));
        const targets = [''];
        for (const node of app.project.nodes) {
          targets.push(node.name);
          for (const s of node.steps) {
            if (s.kind === 'gather') targets.push(`${node.name}.${s.name}.handle`);
            if (s.kind === 'dial' && s.nextModule) targets.push(`${node.name}.${s.name}.actionhandler`);
            if ((s.kind === 'record' || s.kind === 'sms') && s.next)
              targets.push(`${node.name}.${s.name}.actionhandler`);
          }
        }
        for (const target of targets) {
          const result = await app.render(target, { Digits: digits, From: '+1555', pin: '1' });
          if (result.error) expect(result.error.code).toBe('designer.loop');
          const parsed = parseRcml(result.xml);
          expect(parsed.ok, `${target}: ${JSON.stringify(parsed.diagnostics)}\n${result.xml}`).toBe(true);
          if (!parsed.ok) return;
          expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          for (const link of linksOf(result.document)) {
            const t = new URLSearchParams(link.slice('controller?'.length)).get('target') ?? '';
            expect(modules.has(t.split('.')[0] ?? '')).toBe(true);
          }
        }
      }),
      { numRuns: runs, seed: 42 },
    );
  });
});
