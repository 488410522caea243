/**
 * The external-service step reads at most a byte cap of an answer (default 1 MiB): an endless
 * answer or a compressed bomb fails the step instead of filling memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProject, type FetchLike } from '../../src/designer/index.js';
import { type HostileServer, startHostileServer } from '../support/hostile-webhook.js';

function project(url: string) {
  return {
    header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
    nodes: [
      {
        name: 'start',
        steps: [
          {
            kind: 'externalService',
            name: 'step1',
            url,
            assignments: [{ destVariable: 'v', scope: 'module', valueExtractor: { accessOperations: [] } }],
          },
          { kind: 'say', name: 'step2', phrase: 'done' },
        ],
      },
    ],
  };
}

/** An answer whose stream never ends; counts the bytes handed out. */
function endless(handed: { bytes: number }): FetchLike {
  const chunk = new Uint8Array(16 * 1024).fill(0x20);
  return async () => ({
    status: 200,
    text: async () => {
      throw new Error('the body is read as a stream');
    },
    body: new ReadableStream<Uint8Array>({
      pull(controller) {
        handed.bytes += chunk.length;
        controller.enqueue(chunk);
      },
    }),
  });
}

describe('externalService: answer size', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('stops reading an endless answer at the cap and fails the step, naming it', async () => {
    const handed = { bytes: 0 };
    const app = compileProject(project('http://svc.test/api'), {
      fetch: endless(handed),
      esMaxBodyBytes: 100_000,
    });
    const result = await app.render('', {});
    // A failed step hangs up, as the designer's rendering rules say.
    expect(result.document.verbs.map((v) => v.verb)).toEqual(['Hangup']);
    expect(result.error).toMatchObject({
      code: 'designer.es-failed',
      message: 'request to http://svc.test/api failed: response body exceeds 100000 bytes',
    });
    expect(handed.bytes).toBeLessThan(100_000 + 32 * 1024);
  });

  it('reads at most 1 MiB over real HTTP: endless bodies and gzip bombs fail (default fetch)', async () => {
    for (const path of ['/endless', '/gzip-bomb']) {
      const app = compileProject(project(`${server.base}${path}`));
      const result = await app.render('', {});
      expect(result.error?.message, path).toMatch(/response body exceeds 1048576 bytes$/);
    }
    // The bomb inflates to 32 MiB: reading stopped at the cap, long before that.
    expect(server.bombBytes).toBeGreaterThan(1024 * 1024);
  });
});
