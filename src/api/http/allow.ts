import type { Hono } from 'hono';

/** A route pattern of hono (`/a/:id/b`) as a regular expression over whole paths. */
function patternRegex(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * The methods the routes of `app` answer on `path`, for a 405's `Allow` header (empty when no
 * route knows the path). Middleware (`ALL`) routes do not count; HEAD comes with GET.
 */
export function methodsAllowed(app: Hono): (path: string) => string[] {
  let table: Array<{ method: string; regex: RegExp }> | undefined;
  return (path) => {
    table ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ method: r.method, regex: patternRegex(r.path) }));
    const methods = new Set<string>();
    for (const { method, regex } of table) if (regex.test(path)) methods.add(method);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
