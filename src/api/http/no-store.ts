import type { Context, MiddlewareHandler } from 'hono';

/** Sets a header the answer does not set itself, copying an answer whose headers are immutable. */
function setDefault(c: Context, name: string, value: string): void {
  if (c.res.headers.has(name)) return;
  try {
    c.res.headers.set(name, value);
  } catch {
    // A response whose headers are immutable (one passed through from a fetch) is copied.
    const copy = new Response(c.res.body, c.res);
    copy.headers.set(name, value);
    c.res = copy;
  }
}

/**
 * `Cache-Control: no-store` on every answer that does not set its own: records, secrets shown
 * once and error bodies must not stay in a browser's or a proxy's cache. And
 * `X-Content-Type-Options: nosniff` on every answer: a browser takes each body for the type it
 * is declared as (an uploaded WAV or a JSON error is never run as a script or page).
 */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  setDefault(c, 'Cache-Control', 'no-store');
  setDefault(c, 'X-Content-Type-Options', 'nosniff');
};
