/**
 * externalService: calls an HTTP service while rendering, assigns values from its answer and
 * optionally routes to another module, with the platform's rules (ExternalServiceStep.process).
 */
import {
  type FetchResponseLike,
  log,
  type RenderContext,
  RenderError,
  type StepOutcome,
} from '../context.js';
import type { ExternalServiceStep } from '../schema.js';
import { expand } from '../variables.js';
import { type EsValue, extractValue, parseBody } from './es-response.js';

export { extractValue, parseBody } from './es-response.js';

/** The configured external-service timeout when the operator sets none, in ms. */
export const ES_DEFAULT_TIMEOUT = 5000;

/** Bytes of an answer read at most when the operator sets no cap. */
export const ES_DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const FORM = 'application/x-www-form-urlencoded';

interface BuiltRequest {
  url: string;
  /** The URL as written, credentials included: logs hide the password. */
  shown: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function resolveUrl(step: ExternalServiceStep, ctx: RenderContext): URL {
  const raw = expand(step.url, ctx.vars);
  try {
    return new URL(raw, ctx.app.esBaseUrl);
  } catch {
    throw new RenderError(
      'designer.es-url',
      `external service URL "${raw}" is not absolute and no base URL is configured`,
    );
  }
}

/**
 * Takes `user:password@` out of `url` (changing it) and gives the `Authorization` header that
 * carries it, percent-decoded as RFC 3986 encodes it; undefined when the URL names no user.
 */
function takeCredentials(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const token = Buffer.from(`${decode(url.username)}:${decode(url.password)}`, 'utf8').toString('base64');
  url.username = '';
  url.password = '';
  return `Basic ${token}`;
}

/** The request as the platform builds it: url params in the query (GET/DELETE) or form body only. */
function buildRequest(step: ExternalServiceStep, ctx: RenderContext): BuiltRequest {
  const method = step.method ?? 'GET';
  const url = resolveUrl(step, ctx);
  const params = step.urlParams.map((p): [string, string] => [p.name, expand(p.value, ctx.vars)]);
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (method === 'GET' || method === 'DELETE') {
    for (const [name, value] of params) url.searchParams.append(name, value);
  } else {
    const contentType = step.contentType || FORM;
    const expanded = step.requestBody == null ? undefined : expand(step.requestBody, ctx.vars);
    if (contentType === FORM && step.populatePostBodyFromParams) {
      body = new URLSearchParams(params).toString();
      headers['Content-Type'] = FORM;
    } else {
      // Any other content type is sent as written, with the expanded body.
      headers['Content-Type'] = contentType;
      body = expanded ?? (contentType === FORM ? undefined : '');
    }
  }
  // `user:password@` in the URL is sent as Basic authentication (fetch refuses a URL that
  // carries credentials), as the engine sends it; the step's own username wins over it.
  // The log shows the URL as written (its password hidden by the log), the request goes without.
  const shown = url.toString();
  const fromUrl = takeCredentials(url);
  if (step.username) {
    // The platform uses the credentials as written, without `$` expansion.
    const credentials = `${step.username}:${step.password ?? ''}`;
    headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  } else if (fromUrl) {
    headers.Authorization = fromUrl;
  }
  const callSid = ctx.vars.get('core_CallSid');
  if (callSid) headers['X-RestComm-CallSid'] = callSid;
  for (const h of step.httpHeaders) headers[h.name] = expand(h.value, ctx.vars);
  const request: BuiltRequest = { url: url.toString(), shown, method, headers };
  if (body !== undefined) request.body = body;
  return request;
}

type Fetched =
  | { kind: 'ok'; status: number; text: string }
  | { kind: 'timeout' }
  | { kind: 'error'; message: string };

/**
 * The answer's text, read chunk by chunk and abandoned past `cap` bytes, so an endless or
 * inflating (compressed) answer costs at most the cap.
 */
async function readCapped(response: FetchResponseLike, cap: number): Promise<string> {
  const tooLarge = () => new Error(`response body exceeds ${cap} bytes`);
  if (!response.body) {
    const text = await response.text();
    if (Buffer.byteLength(text) > cap) throw tooLarge();
    return text;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

async function send(request: BuiltRequest, timeout: number, ctx: RenderContext): Promise<Fetched> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    const init: Parameters<typeof ctx.app.fetch>[1] = {
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
    };
    if (request.body !== undefined) init.body = request.body;
    const response = await ctx.app.fetch(request.url, init);
    const text = await readCapped(response, ctx.app.esMaxBodyBytes ?? ES_DEFAULT_MAX_BODY_BYTES);
    return { kind: 'ok', status: response.status, text };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (controller.signal.aborted || name === 'AbortError' || name === 'TimeoutError') {
      return { kind: 'timeout' };
    }
    // undici's `fetch failed` says why in its cause (refused address, connection refused...).
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { kind: 'error', message: `${error instanceof Error ? error.message : String(error)}${cause}` };
  } finally {
    clearTimeout(timer);
  }
}

const routesByResponse = (step: ExternalServiceStep) =>
  Boolean(step.doRouting) && (step.nextType === 'responseBased' || step.nextType === 'mapped');

/** The module routing picks; undefined = no route (the rest of the module renders). */
function route(step: ExternalServiceStep, json: EsValue, ctx: RenderContext): string | undefined {
  if (!step.doRouting) return undefined;
  if (step.nextType === 'fixed') {
    if (!step.next) throw new RenderError('designer.es-route', 'fixed routing has no next module');
    return step.next;
  }
  if (!routesByResponse(step)) return undefined;
  const value = extractValue(json, step.nextValueExtractor);
  if (step.nextType === 'mapped') return step.routeMappings.find((m) => m.value === value)?.next;
  return ctx.app.labels.get(value);
}

function assign(step: ExternalServiceStep, json: EsValue, next: string | undefined, ctx: RenderContext) {
  const scoped = routesByResponse(step);
  for (const a of step.assignments) {
    // With response routing, an assignment scoped to a module runs only when that module is chosen.
    if (scoped && a.moduleNameScope !== undefined && a.moduleNameScope !== next) continue;
    let value: string;
    try {
      value = extractValue(json, a.valueExtractor);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new RenderError('designer.es-bad-response', `could not read "${a.destVariable}": ${why}`);
    }
    if (a.scope === 'application') ctx.vars.set(`sticky_${a.destVariable}`, value);
    else if (a.scope === 'module') ctx.vars.set(`module_${a.destVariable}`, value);
  }
}

/** Runs the step; returns the module to continue with when it routes. */
export async function runExternalService(
  step: ExternalServiceStep,
  ctx: RenderContext,
): Promise<StepOutcome> {
  const request = buildRequest(step, ctx);
  const configured = ctx.app.esMaxTimeout;
  const timeout = Math.min(step.timeout ?? configured, configured);
  log(ctx, 'es-request', `${request.method} ${request.shown}${request.body ? ` ${request.body}` : ''}`);
  const fetched = await send(request, timeout, ctx);
  if (fetched.kind === 'timeout') {
    log(ctx, 'es-response', `timeout after ${timeout} ms`);
    return step.onTimeout ? { goto: step.onTimeout } : undefined;
  }
  if (fetched.kind === 'error') {
    throw new RenderError('designer.es-failed', `request to ${request.shown} failed: ${fetched.message}`);
  }
  log(ctx, 'es-response', `${fetched.status} ${fetched.text}`);
  if (fetched.status >= 400 && fetched.status < 600) {
    const message = `service answered HTTP ${fetched.status}`;
    if (step.exceptionNext) {
      log(ctx, 'exception', `${ctx.module}.${step.name}: ${message}`);
      return { goto: step.exceptionNext };
    }
    throw new RenderError('designer.es-failed', message);
  }
  const needsBody = step.assignments.length > 0 || routesByResponse(step);
  const json = needsBody ? parseBody(fetched.text) : undefined;
  const next = route(step, json, ctx);
  assign(step, json, next, ctx);
  return next ? { goto: next } : undefined;
}
