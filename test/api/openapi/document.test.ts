import { Validator } from '@seriousme/openapi-schema-validator';
import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { autoAttendantOpenApi } from '../../../src/api/autoattendant/openapi.js';
import { callQueueOpenApi } from '../../../src/api/callqueue/openapi.js';
import { designerOpenApi } from '../../../src/api/designer/openapi.js';
import { enterprisesOpenApi } from '../../../src/api/enterprise/openapi.js';
import {
  catalogueOperations,
  declarationsOf,
  type OpenApiDocument,
  PLATFORM_ALIASES,
} from '../../../src/api/openapi/index.js';
import { createPlatformMetrics } from '../../../src/api/ops/index.js';
import { taskRouterOpenApi } from '../../../src/api/taskrouter/openapi.js';
import { createMemoryStore } from '../../../src/store/memory.js';

/**
 * Routes that are not part of the REST API, so not in the document: `METHOD path` relative to
 * `{base_url}`, hono's spelling. Each must exist and carry no declaration.
 */
const NOT_API: readonly string[] = ['GET /'];

/**
 * Areas whose routes are being declared: an undeclared route under one of these prefixes is
 * tolerated for now. A prefix with no undeclared route left fails the test: remove it.
 */
const PENDING: readonly string[] = [];

const CATALOGUED = [
  designerOpenApi,
  callQueueOpenApi,
  enterprisesOpenApi,
  autoAttendantOpenApi,
  taskRouterOpenApi,
];

/** A path with every parameter alike (`{sid}`, `:sid`). */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z0-9_]+/g, '*');

const BASE = 'http://127.0.0.1:8080/rcml';
const BASE_PATH = '/rcml';

function fullApp(): Hono {
  return createApp({
    store: createMemoryStore(),
    baseUrl: BASE,
    ops: { metrics: createPlatformMetrics({ processMetrics: false }) },
  });
}

async function documentOf(app: Hono): Promise<OpenApiDocument> {
  const res = await app.fetch(new Request(`${BASE}/openapi.json`));
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDocument;
}

type RouterRoute = { method: string; path: string; handler: unknown };

/** The routes (not middleware) a request path reaches, first first. */
function routesReached(app: Hono, method: string, path: string): RouterRoute[] {
  const [matched] = app.router.match(method, path) as unknown as [Array<[[unknown, RouterRoute], unknown]>];
  return matched.map(([[, route]]) => route).filter((r) => r.method !== 'ALL');
}

/** A request path of a documented path: each parameter a sample value. */
const samplePath = (path: string) => BASE_PATH + path.replace(/\{[^}]+\}/g, 'X1');

const byKey = (routes: readonly RouterRoute[]) => {
  const out = new Map<string, RouterRoute[]>();
  for (const r of routes) {
    if (r.method === 'ALL') continue;
    const key = `${r.method} ${r.path.slice(BASE_PATH.length)}`;
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
};

describe('GET /openapi.json', () => {
  it('serves, without credentials, an OpenAPI 3.1 document a validator accepts', async () => {
    const doc = await documentOf(fullApp());
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.servers).toEqual([{ url: BASE }]);
    expect(doc.components.securitySchemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc['x-rcml-mounts']).toEqual(PLATFORM_ALIASES);
  });

  it('takes the server URL from the request when the app has no base URL', async () => {
    const app = createApp({ store: createMemoryStore() });
    const res = await app.fetch(new Request('http://example.test:9000/openapi.json'));
    expect(((await res.json()) as OpenApiDocument).servers).toEqual([{ url: 'http://example.test:9000' }]);
  });

  it('documents every route the app registers, and every documented path reaches its route', async () => {
    const app = fullApp();
    const doc = await documentOf(app);
    const routes = byKey(app.routes as RouterRoute[]);
    const catalogued = new Set(catalogueOperations(CATALOGUED).map((op) => op.route.operationId));
    const reached = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const [first] = routesReached(app, method.toUpperCase(), samplePath(path));
        expect(first, `${method} ${path} reaches no route`).toBeDefined();
        const key = `${first.method} ${first.path.slice(BASE_PATH.length)}`;
        const id = String(op.operationId);
        if (catalogued.has(id)) {
          // Declared in a catalogue: the path must be the route's own, parameters aside.
          expect(shape(key), `${method} ${path} (${id}) reaches ${key}`).toBe(
            `${method.toUpperCase()} ${shape(path)}`,
          );
        } else {
          const ids = (routes.get(key) ?? []).flatMap((r) =>
            declarationsOf(r.handler).map((d) => d.operationId),
          );
          expect(
            ids.some((base) => id === base || /^(Xml|XmlDefault|JsonDefault)$/.test(id.slice(base.length))),
            `${method} ${path} (${id}) reaches ${key}, declared as ${ids.join(', ') || 'nothing'}`,
          ).toBe(true);
        }
        reached.add(key);
      }
    }
    const undeclared: string[] = [];
    for (const key of routes.keys()) {
      const [method, path] = key.split(' ');
      const alias = PLATFORM_ALIASES.find((a) => path.startsWith(`${a.prefix}/`));
      const canonical = alias ? `${method} ${alias.serves}${path.slice(alias.prefix.length)}` : key;
      if (reached.has(canonical) || NOT_API.includes(key)) continue;
      undeclared.push(key);
    }
    const under = (key: string, prefix: string) => {
      const path = key.split(' ')[1];
      return path === prefix || path.startsWith(`${prefix}/`);
    };
    const pending = undeclared.filter((key) => PENDING.some((p) => under(key, p)));
    expect(undeclared.filter((key) => !pending.includes(key))).toEqual([]);
    for (const prefix of PENDING) {
      expect(
        pending.some((key) => under(key, prefix)),
        `every route under ${prefix} is declared: remove it from PENDING`,
      ).toBe(true);
    }
    for (const key of NOT_API) expect(routes.has(key), `${key} of NOT_API is no route`).toBe(true);
  });

  it('gives every operation a unique id and a tag, and names the shared schemas', async () => {
    const doc = await documentOf(fullApp());
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['listCalls', 'createCall', 'getCall', 'updateCall', 'getRecording']),
    );
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) expect((op.tags as string[]).length).toBe(1);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Error', 'PageEnvelope', 'Call', 'CallList', 'Recording', 'Notification']),
    );
    const audio = doc.paths['/platform/2012-04-24/Accounts/{AccountSid}/Recordings/{RecordingSid}.wav'].get;
    expect(audio.security).toEqual([]);
    expect(doc.paths['/health'].get.security).toEqual([]);
  });
});
