/**
 * Checks real answers of an app against the areas' route declarations: which route a request
 * reached, whether its status is declared, and whether its body parses with the declared schema.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AreaDeclaration, RouteDeclaration } from '../../src/api/http/openapi-kit.js';

/** One request and its answer, as the app gave it. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
}

/** A declared route with its full path (below `{base_url}`) as a pattern. */
interface Located {
  route: RouteDeclaration;
  fullPath: string;
  pattern: RegExp;
  params: number;
}

const fullPathOf = (mount: string, path: string) => (path === '/' ? mount : `${mount}${path}`);

function locate(areas: readonly AreaDeclaration[]): Located[] {
  return areas
    .flatMap((area) =>
      area.routes.map((route) => {
        const fullPath = fullPathOf(area.mount, route.path);
        const source = fullPath.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
        return {
          route,
          fullPath,
          pattern: new RegExp(`^${source}$`),
          params: (fullPath.match(/\{/g) ?? []).length,
        };
      }),
    )
    .sort((a, b) => a.params - b.params);
}

/** The declared route a request reaches (literal segments before parameters), if any. */
export function routeOf(
  areas: readonly AreaDeclaration[],
  method: string,
  path: string,
): Located | undefined {
  const m = method.toLowerCase();
  return locate(areas).find((l) => l.route.method === m && l.pattern.test(path));
}

/** Every declared route as `METHOD /full/path`, with `{param}`s. */
export const declaredRoutes = (areas: readonly AreaDeclaration[]) =>
  locate(areas).map((l) => `${l.route.method.toUpperCase()} ${l.fullPath}`);

/** Hono's registered routes below `prefix` (middleware left out) as `METHOD /path/{param}`. */
export function registeredRoutes(app: Hono, prefixes: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || !prefixes.some((p) => r.path === p || r.path.startsWith(`${p}/`))) continue;
    seen.add(`${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
  }
  return [...seen].sort();
}

/** What is wrong with an exchange against the declarations; empty when it conforms. */
export function problemsOf(areas: readonly AreaDeclaration[], ex: Exchange): string[] {
  const where = `${ex.method} ${ex.path} -> ${ex.status}`;
  const found = routeOf(areas, ex.method, ex.path);
  if (!found) return [`${where}: no declared route`];
  const answer = found.route.responses[ex.status];
  if (!answer) return [`${where}: status not declared by ${found.route.operationId}`];
  if (!answer.content) return ex.body === '' ? [] : [`${where}: body where none is declared`];
  const media = ex.contentType.split(';')[0].trim();
  const declared = answer.content[media];
  if (!declared) return [`${where}: content type ${media} not declared (${Object.keys(answer.content)})`];
  if (media !== 'application/json') return [];
  const parsed = declared.schema.safeParse(JSON.parse(ex.body));
  return parsed.success ? [] : [`${where}: ${z.prettifyError(parsed.error)}\n${ex.body.slice(0, 500)}`];
}

/**
 * Records every exchange of `app.fetch` from now on (the harnesses call `app.fetch` each time,
 * so replacing it on the instance sees them all).
 */
export function recordExchanges(app: { fetch: Hono['fetch'] }, basePath = ''): Exchange[] {
  const exchanges: Exchange[] = [];
  const inner = app.fetch.bind(app);
  app.fetch = (async (request: Request, ...rest: unknown[]) => {
    const res = await (inner as (r: Request, ...x: unknown[]) => Promise<Response>)(request, ...rest);
    const body = res.status === 204 || res.status === 416 ? '' : await res.clone().text();
    exchanges.push({
      method: request.method,
      path: new URL(request.url).pathname.slice(basePath.length),
      status: res.status,
      contentType: res.headers.get('Content-Type') ?? '',
      body: isBinary(res) ? '' : body,
    });
    return res;
  }) as Hono['fetch'];
  return exchanges;
}

const isBinary = (res: Response) => /audio\/wav|application\/zip/.test(res.headers.get('Content-Type') ?? '');

/** Declared routes that no exchange reached. */
export function unexercised(areas: readonly AreaDeclaration[], exchanges: readonly Exchange[]): string[] {
  const reached = new Set(
    exchanges.flatMap((ex) => {
      const l = routeOf(areas, ex.method, ex.path);
      return l ? [`${l.route.method.toUpperCase()} ${l.fullPath}`] : [];
    }),
  );
  return declaredRoutes(areas).filter((r) => !reached.has(r));
}

/** Whether every schema of the declarations converts to JSON Schema (requests as input, answers as output). */
export function unconvertible(areas: readonly AreaDeclaration[]): string[] {
  const out: string[] = [];
  const tryConvert = (what: string, schema: z.ZodType, io: 'input' | 'output') => {
    try {
      z.toJSONSchema(schema, { io, unrepresentable: 'throw' });
    } catch (err) {
      out.push(`${what}: ${(err as Error).message}`);
    }
  };
  for (const area of areas) {
    for (const r of area.routes) {
      const id = r.operationId;
      for (const part of ['params', 'query', 'headers'] as const) {
        const s = r.request?.[part];
        if (s) tryConvert(`${id} ${part}`, s, 'input');
      }
      for (const [type, m] of Object.entries(r.request?.body?.content ?? {}))
        tryConvert(`${id} body ${type}`, m.schema, 'input');
      for (const [status, a] of Object.entries(r.responses)) {
        for (const [type, m] of Object.entries(a.content ?? {}))
          tryConvert(`${id} ${status} ${type}`, m.schema, 'output');
      }
    }
  }
  return out;
}
