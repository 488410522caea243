/**
 * The running application: `{base_url}/visual-designer/services/apps/{sid}/controller` renders
 * the built version's RCML for a target (`?target=module[.step[.action]]`) with the request's
 * parameters, over HTTP (GET query, or POST form body; body parameters win; other bodies are
 * ignored) and in process for
 * the engine (the call's `AccountSid` must own the application).
 */

import type { Context, Hono } from 'hono';
import { formPairs } from '../../engine/params.js';
import type { HandlerRequest, HandlerResponse } from '../../engine/types.js';
import { ApiError } from '../http/errors.js';
import type { DesignerDeps, DesignerEnv } from './context.js';
import type { ControllerResult, DesignerRuntime } from './runtime.js';

const CONTROLLER_PATH = /\/visual-designer\/services\/apps\/([^/?#]+)\/controller$/;

/**
 * Request parameters by name; a name given several times (a SIP header that repeats, such as
 * `SipHeader_Diversion`) keeps every value, joined with commas as SIP joins repeated headers.
 */
function joinRepeated(pairs: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of pairs) out[k] = Object.hasOwn(out, k) ? `${out[k]},${v}` : v;
  return out;
}

function splitTarget(params: Record<string, string>): { target: string; params: Record<string, string> } {
  const { target = '', ...rest } = params;
  return { target, params: rest };
}

/** `GET` and `POST /apps/{sid}/controller`. */
export function registerController(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const serve = async (c: Context<DesignerEnv>) => {
    const pairs = [...new URL(c.req.url).searchParams];
    // The platform posts its parameters form-encoded; another body carries none.
    const type = c.req.header('Content-Type') ?? '';
    if (c.req.method === 'POST' && type.includes('application/x-www-form-urlencoded')) {
      pairs.push(...new URLSearchParams(await c.req.text()));
    }
    const params = joinRepeated(pairs);
    const split = splitTarget(params);
    const result = await deps.runtime.render({
      accountSid: c.get('account').sid,
      sid: c.req.param('sid') ?? '',
      ...split,
    });
    if (!result.ok) throw new ApiError(result.status, result.code, result.message);
    return c.body(result.xml, 200, { 'Content-Type': 'application/xml' });
  };
  app.get('/apps/:sid/controller', serve);
  app.post('/apps/:sid/controller', serve);
}

const asResponse = (result: ControllerResult): HandlerResponse =>
  result.ok
    ? { status: 200, contentType: 'application/xml', body: result.xml }
    : {
        status: result.status,
        contentType: 'application/json',
        body: JSON.stringify({ status: result.status, code: result.code, message: result.message }),
      };

/** The controller as an in-process handler of the engine (registered under the service's URL). */
export function controllerHandler(
  runtime: DesignerRuntime,
): (req: HandlerRequest) => Promise<HandlerResponse> {
  return async (req) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return asResponse({
        ok: false,
        status: 404,
        code: 'not-found',
        message: `no controller at ${req.url}`,
      });
    }
    const sid = CONTROLLER_PATH.exec(url.pathname)?.[1];
    const accountSid = req.params.AccountSid;
    if (!sid || !accountSid) {
      return asResponse({
        ok: false,
        status: 404,
        code: 'not-found',
        message: `no controller at ${req.url}`,
      });
    }
    // A repeated SIP header reaches an in-process handler as one string (see `formPairs`): its
    // values are joined with commas here, as over HTTP.
    const params = joinRepeated(formPairs(req.params));
    const split = splitTarget({ ...Object.fromEntries(url.searchParams), ...params });
    return asResponse(await runtime.render({ accountSid, sid: decodeURIComponent(sid), ...split }));
  };
}
