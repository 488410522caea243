import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/designer/index.js';
import { compileProject } from '../../src/designer/index.js';
import { app, fixture } from './helpers.js';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function fakeFetch(status: number, body: string, seen: Seen[] = []): FetchLike {
  return async (url, init) => {
    const entry: Seen = { url, method: init.method, headers: init.headers };
    if (init.body !== undefined) entry.body = init.body;
    seen.push(entry);
    return { status, text: async () => body };
  };
}

const gold = JSON.stringify({ user: { name: 'Ann' }, tags: ['vip', 'x'], tier: 'gold' });

describe('externalService step', () => {
  it('builds the request: query params, basic auth, call sid and custom headers', async () => {
    const seen: Seen[] = [];
    const a = app('external-service', { fetch: fakeFetch(200, gold, seen) });
    await a.render('', { From: '+1 555', To: '42', CallSid: 'CA1' });
    expect(seen).toEqual([
      {
        url: 'http://api.example.com/users?id=%2B1+555',
        method: 'GET',
        headers: {
          Authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
          'X-RestComm-CallSid': 'CA1',
          'X-Key': 'k-42',
        },
      },
    ]);
  });

  it('assigns extracted values and routes through routeMappings in the same response', async () => {
    // The module-scoped value is gone once routing enters another module.
    const result = await app('external-service', { fetch: fakeFetch(200, gold) }).render('');
    expect(result.document.verbs).toEqual([{ verb: 'Say', text: 'Hello gold Ann ' }]);
  });

  it('routes to exceptionNext on HTTP errors, or renders Hangup without it', async () => {
    const result = await app('external-service', { fetch: fakeFetch(500, 'oops') }).render('');
    expect(result.document.verbs).toEqual([{ verb: 'Say', text: 'Sorry' }]);
    const json = fixture('external-service') as { nodes: { steps: Record<string, unknown>[] }[] };
    delete json.nodes[0]?.steps[0]?.exceptionNext;
    const bare = await compileProject(json, { fetch: fakeFetch(404, '') }).render('');
    expect(bare.document.verbs).toEqual([{ verb: 'Hangup' }]);
    expect(bare.error?.code).toBe('designer.es-failed');
  });

  it('on timeout continues the module (no onTimeout) and logs the exchange', async () => {
    const timeout: FetchLike = async () => {
      throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    };
    const logs: string[] = [];
    const result = await app('external-service', { fetch: timeout, onLog: (e) => logs.push(e.kind) }).render(
      '',
    );
    expect(result.document.verbs).toEqual([{ verb: 'Say', text: 'not reached' }]);
    expect(logs).toEqual(['target', 'es-request', 'es-response', 'rcml']);
  });

  it('POST form body from params, JSON body with variables, responseBased routing by label', async () => {
    const seen: Seen[] = [];
    const project = {
      header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
      nodes: [
        {
          name: 'start',
          label: 'Start',
          steps: [
            {
              kind: 'externalService',
              name: 'step1',
              url: '/api',
              method: 'POST',
              contentType: 'application/x-www-form-urlencoded',
              populatePostBodyFromParams: true,
              urlParams: [{ name: 'a', value: '$x' }],
              doRouting: false,
              timeout: 100000,
            },
            {
              kind: 'externalService',
              name: 'step2',
              url: '/api2',
              method: 'PUT',
              contentType: 'application/json',
              requestBody: '{"v":"$x"}',
              doRouting: true,
              nextType: 'responseBased',
              nextValueExtractor: {
                accessOperations: [
                  { kind: 'object', action: 'propertyNamed', property: 'go' },
                  { kind: 'value' },
                ],
              },
            },
          ],
        },
        { name: 'module1', label: 'Members', steps: [{ kind: 'say', name: 'step3', phrase: 'members' }] },
      ],
    };
    const a = compileProject(project, {
      fetch: fakeFetch(200, '{"go":"Members"}', seen),
      esBaseUrl: 'http://svc.example.com/base/',
    });
    const result = await a.render('', { x: 'a b' });
    expect(result.document.verbs).toEqual([{ verb: 'Say', text: 'members' }]);
    expect(seen[0]).toMatchObject({
      url: 'http://svc.example.com/api',
      body: 'a=a+b',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(seen[1]).toMatchObject({
      method: 'PUT',
      body: '{"v":"a b"}',
      headers: { 'Content-Type': 'application/json' },
    });
  });

  it('a relative URL without a base URL fails with a clear error', async () => {
    const json = fixture('external-service') as { nodes: { steps: Record<string, unknown>[] }[] };
    (json.nodes[0]?.steps[0] as Record<string, unknown>).url = '/relative';
    const result = await compileProject(json, { fetch: fakeFetch(200, gold) }).render('');
    expect(result.document.verbs).toEqual([{ verb: 'Hangup' }]);
    expect(result.error?.message).toMatch(/not absolute/);
  });

  it('sends user:password@ of the URL as Basic authentication, over a real connection', async () => {
    const received: Array<{ url: string; authorization?: string }> = [];
    const server = createServer((req, res) => {
      received.push({ url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(gold);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const json = fixture('external-service') as { nodes: { steps: Record<string, unknown>[] }[] };
      const step = json.nodes[0]?.steps[0] as Record<string, unknown>;
      step.url = `http://us%40er:p%3Ass@127.0.0.1:${port}/users`;
      delete step.username;
      delete step.password;
      const result = await compileProject(json).render('', { From: '1' });
      expect(result.error).toBeUndefined();
      expect(received).toEqual([
        { url: '/users?id=1', authorization: `Basic ${Buffer.from('us@er:p:ss').toString('base64')}` },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("the step's own username wins over the URL's, and the URL is sent without them", async () => {
    const seen: Seen[] = [];
    const json = fixture('external-service') as { nodes: { steps: Record<string, unknown>[] }[] };
    (json.nodes[0]?.steps[0] as Record<string, unknown>).url = 'http://x:y@api.example.com/users';
    await compileProject(json, { fetch: fakeFetch(200, gold, seen) }).render('', { From: '1' });
    expect(seen[0]).toMatchObject({
      url: 'http://api.example.com/users?id=1',
      headers: { Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` },
    });
  });
});
