import { Hono } from 'hono';
import type { PlatformEnv } from './context.js';

/** Path segment of the Twilio dialect, served at `{base_url}/2010-04-01/Accounts/...`. */
export const TWILIO_API_VERSION = '2010-04-01';

/** Collections a POST creates in (answered 201, as Twilio does). */
const CREATED_BY_POST = /\/Accounts\/[^/]+\/(Calls|Clients)(\.json|\.xml)?$/;

const isLinkKey = (key: string) => key === 'uri' || key.endsWith('_uri');

/**
 * Rewrites a relative link of the platform (`/2012-04-24/...`, `/platform/2012-04-24/...`, or
 * a paging link under the base path) into the dialect's `/2010-04-01/...`, relative to
 * `{base_url}` as Twilio's links are relative to its API host.
 */
function dialectLink(link: string, basePath: string): string {
  let out = basePath && link.startsWith(`${basePath}/`) ? link.slice(basePath.length) : link;
  if (out.startsWith('/platform/2012-04-24/')) out = out.slice('/platform'.length);
  if (out.startsWith('/2012-04-24/')) out = `/${TWILIO_API_VERSION}${out.slice('/2012-04-24'.length)}`;
  return out;
}

/** JSON `null` for missing links, links in the dialect's path, list positions as numbers. */
function rewrite(value: unknown, basePath: string, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, basePath));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = key === 'subresource_uris' ? rewriteLink(v, basePath) : rewrite(v, basePath, k);
    }
    return out;
  }
  if (isLinkKey(key)) return rewriteLink(value, basePath);
  if ((key === 'start' || key === 'end') && typeof value === 'string' && /^\d+$/.test(value)) {
    return Number(value);
  }
  return value;
}

function rewriteLink(value: unknown, basePath: string): unknown {
  if (value === 'null') return null;
  return typeof value === 'string' ? dialectLink(value, basePath) : value;
}

/**
 * The platform's routes served a second time in Twilio's dialect: the same handlers, with
 * answers adjusted after the fact: 201 on create, JSON `null` for a missing link (the platform
 * writes the string `"null"`), links under `/2010-04-01`, `<TwilioResponse>` as the XML root.
 * Errors keep the body Twilio's clients read (`code`, `message`, `more_info`, `status`).
 */
export function twilioDialect(platform: Hono<PlatformEnv>, basePath: string): Hono<PlatformEnv> {
  const dialect = new Hono<PlatformEnv>();
  dialect.use('*', async (c, next) => {
    await next();
    const res = c.res;
    const created = c.req.method === 'POST' && res.status === 200 && CREATED_BY_POST.test(c.req.path);
    const type = res.headers.get('Content-Type') ?? '';
    let body: string | undefined;
    if (type.startsWith('application/json')) {
      body = JSON.stringify(rewrite(await res.json(), basePath));
    } else if (type.startsWith('application/xml')) {
      body = (await res.text()).replace(/<(\/?)RestcommResponse>/g, '<$1TwilioResponse>');
    }
    if (body === undefined && !created) return;
    const headers = new Headers(res.headers);
    headers.delete('Content-Length');
    c.res = undefined;
    c.res = new Response(body ?? res.body, { status: created ? 201 : res.status, headers });
  });
  dialect.route('/', platform);
  return dialect;
}
