/**
 * The console's REST calls: `{base}/console/api/rest/<path>` answers as `{base}/<path>` does for
 * the session's account (its Basic credentials added here, never known to the page), so every
 * read and every operator action goes through the REST API, its checks and its rate limit.
 * `GET {base}/console/api/apps/{sid}/graph` draws a Visual Designer application's module graph
 * as Mermaid text (what `rcml graph` prints), and `GET {base}/console/api/apps` lists the
 * applications run from a project file (`rcml serve --project`), which the designer does not.
 */
import type { Context, Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { loadProject, projectGraph } from '../../designer/index.js';
import { ApiError } from '../http/errors.js';
import { type ConsoleDeps, consolePath, isUnsafe, SESSION_COOKIE, sessionOf } from './context.js';

/** Headers passed on to the REST API (the rest, cookies included, stay with the console). */
const FORWARDED = ['Content-Type', 'Accept', 'Range'];

async function forward(
  c: Context,
  deps: ConsoleDeps,
  path: string,
  method = c.req.method,
): Promise<Response> {
  const { id, session } = sessionOf(c, deps);
  const target = new URL(`${deps.basePath}${path}`, c.req.url);
  target.search = new URL(c.req.url).search;
  const headers = new Headers({ Authorization: session.authorization });
  for (const name of FORWARDED) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  const body = isUnsafe(method) ? await c.req.arrayBuffer() : undefined;
  const res = await deps.dispatch(new Request(target, { method, headers, body }));
  if (res.status === 401) {
    // The account's token changed since login: the session ends with it.
    deps.sessions.destroy(id);
    deleteCookie(c, SESSION_COOKIE, { path: consolePath(deps) });
  }
  return res;
}

export function registerConsoleProxy(app: Hono, deps: ConsoleDeps): void {
  const api = `${consolePath(deps)}/api`;
  const prefix = `${api}/rest`;

  app.all(`${prefix}/*`, async (c) => {
    const path = c.req.path.slice(prefix.length);
    if (path.startsWith('/console/') || path === '/console') {
      throw new ApiError(404, 'not-found', 'the console is not reachable through its own REST calls');
    }
    const res = await forward(c, deps, path);
    // A copy: the answer's headers may be immutable, and the console's own middleware adds some.
    return new Response(res.body, res);
  });

  // Applications run from a project file: not records of the designer service.
  app.get(`${api}/apps`, (c) => {
    const { session } = sessionOf(c, deps);
    const served = deps.projects?.list(session.accountSid) ?? [];
    return c.json(served.map(({ sid, name }) => ({ sid, name, kind: 'project file' })));
  });

  app.get(`${api}/apps/:sid/graph`, async (c) => {
    const sid = c.req.param('sid');
    if (!/^AP[0-9a-fA-F]{32}$/.test(sid))
      throw new ApiError(404, 'not-found', `Application ${sid} not found`);
    const served = deps.projects?.get(sessionOf(c, deps).session.accountSid, sid);
    let project: unknown = served?.project;
    if (!served) {
      const res = await forward(c, deps, `/visual-designer/services/projects/${sid}`, 'GET');
      if (!res.ok) return new Response(res.body, res);
      project = await res.json();
    }
    const loaded = loadProject(project);
    if (!loaded.ok) {
      const first = loaded.problems[0];
      throw new ApiError(
        422,
        'invalid-project',
        `the application's project is invalid: ${first?.message ?? ''}`,
      );
    }
    return c.text(projectGraph(loaded.project), 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  });
}
