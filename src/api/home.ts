/**
 * `GET {base_url}/`: where a newcomer goes from the server's root (the console, the API root,
 * the OpenAPI document, the docs), instead of a bare 404. Public, like `/openapi.json`: it
 * names paths only, nothing of any account.
 */
import type { Hono } from 'hono';
import { API_VERSION } from '../engine/records.js';
import { TWILIO_API_VERSION } from './platform/twilio-dialect.js';

export interface HomeOptions {
  /** `{base_url}` as links are written (empty: relative to the request's origin). */
  full: string;
  /** The path routes are mounted under. */
  path: string;
  /** Whether the web console is served. */
  console: boolean;
}

export function mountHome(app: Hono, options: HomeOptions): void {
  app.get(`${options.path}/`, (c) => {
    const base = options.full || new URL(c.req.url).origin + options.path;
    return c.json({
      service: 'rcml-engine',
      ...(options.console ? { console: `${base}/console/` } : {}),
      api_root: `${base}/platform/${API_VERSION}`,
      twilio_dialect: `${base}/${TWILIO_API_VERSION}`,
      openapi: `${base}/openapi.json`,
      docs: 'README.md and docs/ of the rcml-engine package (docs/api.md: the REST resources)',
      credentials: 'HTTP Basic: the account sid and auth token rcml serve printed at its first start',
    });
  });
}
