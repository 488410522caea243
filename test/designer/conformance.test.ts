/**
 * The designer conformance corpus: per step kind, projects written the way the platform's
 * editor writes them and the RCML each request gets, worked out from the platform designer's
 * Java source (each case cites the class and method).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CompileOptions, compileProject, type FetchLike } from '../../src/designer/index.js';

const dir = fileURLToPath(new URL('../../fixtures/designer-conformance/', import.meta.url));

interface ExpectedRequest {
  method: string;
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

interface Case {
  name: string;
  source: string;
  target: string;
  params: Record<string, string>;
  /** The RCML without declaration and indentation; '' = an empty body. */
  xml: string;
  error?: boolean;
  service?: { status: number; body: string } | { error: string };
  request?: ExpectedRequest;
  requests?: ExpectedRequest[];
}

interface Corpus {
  kind: string;
  project: unknown;
  options?: CompileOptions;
  cases: Case[];
}

/** Drops the declaration and the indentation the builder adds. */
function compact(xml: string): string {
  return xml.replace(/^<\?xml[^>]*\?>/, '').replace(/\n\s*/g, '');
}

function service(c: Case, seen: Array<ExpectedRequest & { headers: Record<string, string> }>): FetchLike {
  return async (url, init) => {
    const entry: ExpectedRequest & { headers: Record<string, string> } = {
      method: init.method,
      url,
      headers: init.headers,
    };
    if (init.body !== undefined) entry.body = init.body;
    seen.push(entry);
    const answer = c.service ?? { status: 200, body: '{}' };
    if ('error' in answer) throw new Error(answer.error);
    return { status: answer.status, text: async () => answer.body };
  };
}

const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('designer conformance corpus', () => {
  it('covers every step family', () => {
    const kinds = files.map((f) => (JSON.parse(readFileSync(`${dir}${f}`, 'utf8')) as Corpus).kind);
    for (const kind of [
      'say',
      'play',
      'gather',
      'dial',
      'record',
      'message',
      'redirect',
      'external-service',
      'control',
      'ussd',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  for (const file of files) {
    const corpus = JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as Corpus;
    describe(corpus.kind, () => {
      it('loads without errors or warnings', () => {
        const app = compileProject(corpus.project, corpus.options);
        expect(app.warnings).toEqual([]);
      });
      for (const c of corpus.cases) {
        it(`${c.name} (${c.source.replace(/^.*\/rvd\//, '')})`, async () => {
          const seen: Array<ExpectedRequest & { headers: Record<string, string> }> = [];
          const app = compileProject(corpus.project, { ...corpus.options, fetch: service(c, seen) });
          const result = await app.render(c.target, c.params);
          expect(compact(result.xml)).toBe(c.xml);
          expect(result.error !== undefined).toBe(c.error === true);
          const requests = c.requests ?? (c.request ? [c.request] : undefined);
          if (requests) {
            expect(seen).toHaveLength(requests.length);
            requests.forEach((r, i) => {
              expect(seen[i]).toMatchObject(r);
            });
          }
        });
      }
    });
  }
});
