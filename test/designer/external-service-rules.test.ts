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

  it('aborts after min(step timeout or the configured one, the configured one); 5000 ms unless raised', async () => {
    vi.useFakeTimers();
    const cases: Array<[number | undefined, number | undefined, number]> = [
      [2000, undefined, 2000],
      [100000, 3000, 3000],
      [undefined, undefined, 5000],
      [8000, 9000, 8000],
      [undefined, 9000, 9000],
      [8000, undefined, 5000],
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
  it('DELETE sends params in the query; POST/PUT send them only as a populated form body', async () => {
    const seen: Array<{ url: string; method: string; body?: string }> = [];
    const types: Array<string | undefined> = [];
    const fetch: FetchLike = async (url, init) => {
      types.push(init.headers['Content-Type']);
      return answering(200, '{}', seen)(url, init);
    };
    const urlParams = [{ name: 'q', value: '$x' }];
    const form = 'application/x-www-form-urlencoded';
    await texts({ method: 'DELETE', urlParams }, { fetch }, { x: 'a&b' });
    await texts(
      { method: 'POST', contentType: 'application/json', urlParams, requestBody: '{"x":"$x"}' },
      { fetch },
      { x: '1' },
    );
    await texts(
      {
        method: 'POST',
        contentType: form,
        urlParams,
        requestBody: 'raw=$x',
        populatePostBodyFromParams: false,
      },
      { fetch },
      { x: '2' },
    );
    await texts(
      { method: 'PUT', contentType: form, urlParams, populatePostBodyFromParams: true },
      { fetch },
      { x: '3' },
    );
    await texts(
      { method: 'POST', contentType: 'text/plain', urlParams, requestBody: 'hi $x' },
      { fetch },
      { x: '4' },
    );
    expect(seen).toEqual([
      { url: 'http://svc.test/api?q=a%26b', method: 'DELETE' },
      { url: 'http://svc.test/api', method: 'POST', body: '{"x":"1"}' },
      { url: 'http://svc.test/api', method: 'POST', body: 'raw=2' },
      { url: 'http://svc.test/api', method: 'PUT', body: 'q=3' },
      { url: 'http://svc.test/api', method: 'POST', body: 'hi 4' },
    ]);
    expect(types).toEqual([undefined, 'application/json', form, form, 'text/plain']);
  });

  it("a project whose contentType is the editor's MIME type loads (no warning)", async () => {
    const { loadProject } = await import('../../src/designer/index.js');
    const loaded = loadProject(esProject({ method: 'POST', contentType: 'application/json' }));
    expect(loaded.ok && loaded.warnings).toEqual([]);
  });

  it('username and password are used as written, without $ expansion', async () => {
    let auth = '';
    const fetch: FetchLike = async (_url, init) => {
      auth = init.headers.Authorization ?? '';
      return { status: 200, text: async () => '{}' };
    };
    await texts({ username: '$user', password: 'p$w' }, { fetch }, { user: 'bob', w: 'x' });
    expect(Buffer.from(auth.replace('Basic ', ''), 'base64').toString()).toBe('$user:p$w');
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
        valueExtractor: {
          accessOperations: [{ kind: 'object', action: 'propertyNamed', property: 'a' }, { kind: 'value' }],
        },
      },
      {
        destVariable: 'w',
        scope: 'module',
        valueExtractor: {
          accessOperations: [{ kind: 'object', action: 'propertyNamed', property: 'b' }, { kind: 'value' }],
        },
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

  it('HTTP errors go to exceptionNext, else Hangup; network errors and unparsable bodies always Hangup', async () => {
    const failing: FetchLike = async () => {
      throw new Error('ECONNREFUSED');
    };
    const mapped = {
      doRouting: true,
      nextType: 'mapped',
      routeMappings: [{ value: 'x', next: 'fixed' }],
      nextValueExtractor: { accessOperations: [{ kind: 'value' }] },
    };
    expect((await texts({ exceptionNext: 'oops' }, { fetch: answering(404, 'nope') })).verbs).toEqual([
      'oops',
    ]);
    const bare = await texts({}, { fetch: answering(503, 'nope') });
    expect(bare.verbs).toEqual(['Hangup']);
    expect(bare.result.error?.code).toBe('designer.es-failed');
    for (const [es, fetch] of [
      [{}, failing],
      [mapped, answering(200, '{"a": oops}')],
    ] as Array<[Json, FetchLike]>) {
      const out = await texts({ ...es, exceptionNext: 'oops' }, { fetch });
      expect(out.verbs).toEqual(['Hangup']);
    }
  });

  it('no matching route is not an error: the rest of the module renders', async () => {
    const value = { accessOperations: [{ kind: 'value' }] };
    const mapped = { doRouting: true, nextType: 'mapped', routeMappings: [{ value: 'x', next: 'fixed' }] };
    expect(
      (await texts({ ...mapped, nextValueExtractor: value }, { fetch: answering(200, '"y"') })).verbs,
    ).toEqual(['rest ']);
    // responseBased matches module labels only, not names.
    const byLabel = { doRouting: true, nextType: 'responseBased', nextValueExtractor: value };
    expect((await texts(byLabel, { fetch: answering(200, 'Late') })).verbs).toEqual(['late']);
    expect((await texts(byLabel, { fetch: answering(200, 'late') })).verbs).toEqual(['rest ']);
    // fixed routing without next fails the render.
    expect(
      (await texts({ doRouting: true, nextType: 'fixed', next: '' }, { fetch: answering(200, '') })).verbs,
    ).toEqual(['Hangup']);
  });
});
