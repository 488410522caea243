import type { MiddlewareHandler } from 'hono';

/**
 * `Cache-Control: no-store` on every answer that does not set its own: records, secrets shown
 * once and error bodies must not stay in a browser's or a proxy's cache.
 */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.headers.has('Cache-Control')) return;
  try {
    c.res.headers.set('Cache-Control', 'no-store');
  } catch {
    // A response whose headers are immutable (one passed through from a fetch) is copied.
    const copy = new Response(c.res.body, c.res);
    copy.headers.set('Cache-Control', 'no-store');
    c.res = copy;
  }
};
