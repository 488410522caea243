import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CompileOptions, compileProject, type FetchLike } from '../../src/designer/index.js';

type Json = Record<string, unknown>;

function esProject(es: Json, after: Json[] = [{ kind: 'say', name: 'step2', phrase: 'rest $v' }]): Json {
  return {
    header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
    nodes: [
      {
        name: 'start',
        steps: [{ kind: 'externalService', name: 'step1', url: 'http://svc.test/api', ...es }, ...after],
      },
      { name: 'late', label: 'Late', steps: [{ kind: 'say', name: 'step3', phrase: 'late' }] },
      { name: 'fixed', label: 'Fixed', steps: [{ kind: 'say', name: 'step4', phrase: 'fixed $v' }] },
      { name: 'oops', label: 'Oops', steps: [{ kind: 'say', name: 'step5', phrase: 'oops' }] },
    ],
  };
}

/** A service that never answers: it only rejects when the request is aborted. */
function hanging(abortedAfter: number[]): FetchLike {
  return (_url, init) => {
    const start = Date.now();
    return new Promise((_, reject) => {
      init.signal?.addEventListener('abort', () => {
        abortedAfter.push(Date.now() - start);
        reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      });
    });
  };
}

const answering =
  (
    status: number,
    body: string,
    seen: Array<{ url: string; method: string; body?: string }> = [],
  ): FetchLike =>
  async (url, init) => {
    seen.push(
      init.body === undefined ? { url, method: init.method } : { url, method: init.method, body: init.body },
    );
    return { status, text: async () => body };
  };

async function texts(es: Json, options: CompileOptions, params: Record<string, string> = {}) {
  const result = await compileProject(esProject(es), options).render('', params);
  return { result, verbs: result.document.verbs.map((v) => (v.verb === 'Say' ? v.text : v.verb)) };
}

describe('externalService: timeouts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts after min(step timeout, configured max, 5000 ms)', async () => {
    vi.useFakeTimers();
    const cases: Array<[number | undefined, number | undefined, number]> = [
      [2000, undefined, 2000],
      [100000, 3000, 3000],
      [undefined, undefined, 5000],
      [8000, 9000, 5000],
    ];
    for (const [timeout, esMaxTimeout, expected] of cases) {
      const abortedAfter: number[] = [];
      const options: CompileOptions = { fetch: hanging(abortedAfter) };
      if (esMaxTimeout !== undefined) options.esMaxTimeout = esMaxTimeout;
      const pending = texts(timeout === undefined ? {} : { timeout }, options);
      await vi.runAllTimersAsync();
      const { verbs } = await pending;
      expect(abortedAfter, `step ${timeout}, max ${esMaxTimeout}`).toEqual([expected]);
      // Without onTimeout the module goes on with its next step.
      expect(verbs).toEqual(['rest ']);
    }
  });

  it('a timeout renders onTimeout when set', async () => {
    vi.useFakeTimers();
    const logs: string[] = [];
    const pending = texts(
      { timeout: 1000, onTimeout: 'late', exceptionNext: 'oops' },
      { fetch: hanging([]), onLog: (e) => logs.push(`${e.kind}: ${e.message}`) },
    );
    await vi.runAllTimersAsync();
    expect((await pending).verbs).toEqual(['late']);
    expect(logs).toContain('es-response: timeout after 1000 ms');
  });
});

describe('externalService: requests and answers', () => {
  it('DELETE sends params in the query; POST JSON sends the expanded body, params in the query', async () => {
    const seen: Array<{ url: string; method: string; body?: string }> = [];
    const urlParams = [{ name: 'q', value: '$x' }];
    await texts({ method: 'DELETE', urlParams }, { fetch: answering(200, '{}', seen) }, { x: 'a&b' });
    await texts(
      { method: 'POST', contentType: 'json', urlParams, requestBody: '{"x":"$x"}' },
      { fetch: answering(200, '{}', seen) },
      { x: '1' },
    );
    await texts(
      { method: 'POST', contentType: 'form', requestBody: 'raw=$x', populatePostBodyFromParams: false },
      { fetch: answering(200, '{}', seen) },
      { x: '2' },
    );
    expect(seen).toEqual([
      { url: 'http://svc.test/api?q=a%26b', method: 'DELETE' },
      { url: 'http://svc.test/api?q=1', method: 'POST', body: '{"x":"1"}' },
      { url: 'http://svc.test/api', method: 'POST', body: 'raw=2' },
    ]);
  });

  it('no X-RestComm-CallSid header without a call sid; custom headers may override defaults', async () => {
    let headers: Record<string, string> = {};
    const fetch: FetchLike = async (_url, init) => {
      headers = init.headers;
      return { status: 200, text: async () => '{}' };
    };
    await texts(
      { method: 'PUT', contentType: 'json', httpHeaders: [{ name: 'Content-Type', value: 'text/json' }] },
      { fetch },
    );
    expect(headers).toEqual({ 'Content-Type': 'text/json' });
  });

  it('fixed routing renders next after the assignments; scopes decide what links carry', async () => {
    const assignments = [
      {
        destVariable: 'v',
        scope: 'application',
        valueExtractor: { accessOperations: [{ kind: 'object', action: 'propertyNamed', property: 'a' }] },
      },
      {
        destVariable: 'w',
        scope: 'module',
        valueExtractor: { accessOperations: [{ kind: 'object', action: 'propertyNamed', property: 'b' }] },
      },
    ];
    const routed = await texts(
      { assignments, doRouting: true, nextType: 'fixed', next: 'fixed' },
      { fetch: answering(200, '{"a":"A","b":"B"}') },
    );
    expect(routed.verbs).toEqual(['fixed A']);
    const project = esProject({ assignments }, [{ kind: 'redirect', name: 'step2', next: 'fixed' }]);
    const stay = await compileProject(project, { fetch: answering(200, '{"a":"A","b":"B"}') }).render('');
    expect(stay.document.verbs).toEqual([
      { verb: 'Redirect', url: 'controller?target=fixed&sticky_v=A&module_w=B' },
    ]);
  });

  it('4xx, network errors, non-JSON answers and unmatched routes go to exceptionNext, else Hangup', async () => {
    const failing: FetchLike = async () => {
      throw new Error('ECONNREFUSED');
    };
    const mapped = { doRouting: true, nextType: 'mapped', routeMappings: [{ value: 'x', next: 'fixed' }] };
    for (const [es, fetch] of [
      [{}, answering(404, 'nope')],
      [{}, failing],
      [{ ...mapped }, answering(200, 'not json')],
      [{ ...mapped, nextValueExtractor: { accessOperations: [{ kind: 'value' }] } }, answering(200, '"y"')],
    ] as Array<[Json, FetchLike]>) {
      expect((await texts({ ...es, exceptionNext: 'oops' }, { fetch })).verbs).toEqual(['oops']);
      const bare = await texts(es, { fetch });
      expect(bare.verbs).toEqual(['Hangup']);
      expect(bare.result.error?.code).toBe('designer.es-failed');
    }
  });
});
