import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRcml, VERB_NAMES } from '../../src/rcml/index.js';

function xmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => join(dir, f));
}

const sharedDir = new URL('../../../shared/fixtures/rcml/', import.meta.url).pathname;
const ownDir = new URL('../../fixtures/rcml/', import.meta.url).pathname;

describe.skipIf(!existsSync(sharedDir))('platform RCML corpus', () => {
  const files = existsSync(sharedDir) ? xmlFiles(sharedDir) : [];

  it('has documents to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [f.slice(sharedDir.length), f]))('%s parses without errors', (_name, file) => {
    const result = parseRcml(readFileSync(file, 'utf8'));
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('project RCML examples', () => {
  const files = xmlFiles(ownDir);

  it.each(files.map((f) => [f.slice(ownDir.length), f]))('%s parses with no diagnostics', (_name, file) => {
    expect(parseRcml(readFileSync(file, 'utf8'))).toMatchObject({ ok: true, diagnostics: [] });
  });

  it('cover every verb and noun', () => {
    const seen = new Set<string>();
    for (const file of files) {
      const result = parseRcml(readFileSync(file, 'utf8'));
      if (!result.ok) continue;
      for (const verb of result.document.verbs) {
        seen.add(verb.verb);
        if (verb.verb === 'Gather') for (const p of verb.prompts) seen.add(p.verb);
        if (verb.verb === 'Dial') for (const n of verb.nouns) seen.add(n.noun);
      }
    }
    expect([...seen].sort()).toEqual(
      [...VERB_NAMES, 'Number', 'Client', 'Sip', 'Conference', 'Queue'].sort(),
    );
  });
});
