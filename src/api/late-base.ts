import { Hono } from 'hono';

/** Whether `baseUrl` is an absolute URL (scheme and host), as links and recording URLs need. */
export function isAbsoluteUrl(baseUrl: string | undefined): baseUrl is string {
  if (!baseUrl) return false;
  try {
    return new URL(baseUrl).host !== '';
  } catch {
    return false;
  }
}

/** The path of a base URL given as an absolute URL, as a path (`/rcml`) or not at all. */
export function basePathOf(baseUrl: string | undefined): string {
  if (!baseUrl) return '';
  const path = isAbsoluteUrl(baseUrl) ? new URL(baseUrl).pathname : baseUrl;
  if (!path.startsWith('/'))
    throw new Error(`baseUrl is neither an absolute URL nor a path: ${JSON.stringify(baseUrl)}`);
  return path.replace(/\/+$/, '');
}

/** An app whose absolute base URL is learned after it is created. */
export interface LateBaseApp {
  app: Hono;
  /** The base URL in use; undefined until it is set or a first request came. */
  readonly baseUrl: string | undefined;
  /** Sets the base URL (e.g. once `listen()` picked a port); its path must be the one routed. */
  setBaseUrl(baseUrl: string): void;
}

/**
 * Serves the app `build` makes for a base URL that is known only later: set with `setBaseUrl`
 * (a server on port 0 knows its port only after `listen()`), or else taken from the first
 * request, its origin followed by `basePath`. Links the app writes need an absolute base, so
 * nothing is built before one is known; then it is built once and kept.
 */
export function lateBaseApp(basePath: string, build: (baseUrl: string) => Hono): LateBaseApp {
  let built: { baseUrl: string; app: Hono } | undefined;
  const setBaseUrl = (baseUrl: string) => {
    if (built) throw new Error(`the base URL is already ${built.baseUrl}`);
    if (!isAbsoluteUrl(baseUrl))
      throw new Error(`baseUrl is not an absolute URL: ${JSON.stringify(baseUrl)}`);
    if (basePathOf(baseUrl) !== basePath) {
      throw new Error(
        `baseUrl ${baseUrl} does not end in the routed path ${JSON.stringify(basePath || '/')}`,
      );
    }
    const url = new URL(baseUrl);
    const full = `${url.origin}${basePath}`;
    built = { baseUrl: full, app: build(full) };
  };
  const app = new Hono();
  app.all('*', (c) => {
    if (!built) setBaseUrl(`${new URL(c.req.url).origin}${basePath}`);
    return (built as { app: Hono }).app.fetch(c.req.raw, c.env);
  });
  return {
    app,
    get baseUrl() {
      return built?.baseUrl;
    },
    setBaseUrl,
  };
}
