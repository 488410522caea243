/**
 * externalService: calls an HTTP service while rendering, assigns values from its JSON answer
 * and optionally routes to another module.
 */
import { log, type RenderContext, RenderError, type StepOutcome } from '../context.js';
import type { ExternalServiceStep, ValueExtractor } from '../schema.js';
import { expand, storeVariable } from '../variables.js';

/** Upper bound of any external-service timeout, in ms. */
export const ES_TIMEOUT_CAP = 5000;

/** Applies a value extractor's access operations to a parsed JSON value. */
export function extractValue(json: unknown, extractor: ValueExtractor | undefined): unknown {
  let value = json;
  for (const op of extractor?.accessOperations ?? []) {
    if (op.kind === 'object') {
      value =
        typeof value === 'object' && value !== null && !Array.isArray(value) && op.property
          ? (value as Record<string, unknown>)[op.property]
          : undefined;
    } else if (op.kind === 'array') {
      value = Array.isArray(value) && op.position !== undefined ? value[op.position] : undefined;
    } else {
      break;
    }
  }
  return value;
}

/** String form of an extracted value: objects as JSON, missing as ''. */
export function valueToString(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

interface BuiltRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function buildRequest(step: ExternalServiceStep, ctx: RenderContext): BuiltRequest {
  const method = step.method ?? 'GET';
  const raw = expand(step.url, ctx.vars);
  let url: URL;
  try {
    url = new URL(raw, ctx.app.esBaseUrl);
  } catch {
    throw new RenderError(
      'designer.es-url',
      `external service URL "${raw}" is not absolute and no base URL is configured`,
    );
  }
  const params = step.urlParams.map((p) => [p.name, expand(p.value, ctx.vars)] as const);
  const headers: Record<string, string> = {};
  let body: string | undefined;
  const formBody = (method === 'POST' || method === 'PUT') && step.contentType !== 'json';
  if (formBody && step.populatePostBodyFromParams) {
    body = new URLSearchParams(params.map(([k, v]): [string, string] => [k, v])).toString();
  } else {
    for (const [name, value] of params) url.searchParams.append(name, value);
  }
  if ((method === 'POST' || method === 'PUT') && body === undefined && step.requestBody) {
    body = expand(step.requestBody, ctx.vars);
  }
  if (method === 'POST' || method === 'PUT') {
    headers['Content-Type'] =
      step.contentType === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  }
  if (step.username) {
    const credentials = `${expand(step.username, ctx.vars)}:${expand(step.password, ctx.vars)}`;
    headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const callSid = ctx.vars.get('core_CallSid');
  if (callSid) headers['X-RestComm-CallSid'] = callSid;
  for (const h of step.httpHeaders) headers[h.name] = expand(h.value, ctx.vars);
  const request: BuiltRequest = { url: url.toString(), method, headers };
  if (body !== undefined) request.body = body;
  return request;
}

type Fetched =
  | { kind: 'ok'; status: number; text: string }
  | { kind: 'timeout' }
  | { kind: 'error'; message: string };

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
    return { kind: 'ok', status: response.status, text: await response.text() };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (controller.signal.aborted || name === 'AbortError' || name === 'TimeoutError') {
      return { kind: 'timeout' };
    }
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

function fail(step: ExternalServiceStep, ctx: RenderContext, message: string): StepOutcome {
  log(ctx, 'exception', `${ctx.module}.${step.name}: ${message}`);
  if (step.exceptionNext) return { goto: step.exceptionNext };
  throw new RenderError('designer.es-failed', message);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function route(step: ExternalServiceStep, json: unknown, ctx: RenderContext): string | undefined {
  if (step.nextType === 'fixed' || step.nextType === undefined) return step.next || undefined;
  const value = valueToString(extractValue(json, step.nextValueExtractor));
  if (step.nextType === 'mapped') return step.routeMappings.find((m) => m.value === value)?.next;
  return ctx.app.labels.get(value) ?? (ctx.app.modules.has(value) ? value : undefined);
}

/** Runs the step; returns the module to continue with when it routes. */
export async function runExternalService(
  step: ExternalServiceStep,
  ctx: RenderContext,
): Promise<StepOutcome> {
  const request = buildRequest(step, ctx);
  const timeout = Math.min(step.timeout ?? ES_TIMEOUT_CAP, ctx.app.esMaxTimeout, ES_TIMEOUT_CAP);
  log(ctx, 'es-request', `${request.method} ${request.url}${request.body ? ` ${request.body}` : ''}`);
  const fetched = await send(request, timeout, ctx);
  if (fetched.kind === 'timeout') {
    log(ctx, 'es-response', `timeout after ${timeout} ms`);
    return step.onTimeout ? { goto: step.onTimeout } : undefined;
  }
  if (fetched.kind === 'error') return fail(step, ctx, `request failed: ${fetched.message}`);
  log(ctx, 'es-response', `${fetched.status} ${fetched.text}`);
  if (fetched.status >= 400) return fail(step, ctx, `service answered HTTP ${fetched.status}`);
  const needsJson = step.assignments.length > 0 || (step.doRouting && step.nextType !== 'fixed');
  let json: unknown;
  if (needsJson) {
    const parsed = parseJson(fetched.text);
    if (!parsed.ok) return fail(step, ctx, 'service response is not JSON');
    json = parsed.value;
  }
  for (const a of step.assignments) {
    storeVariable(ctx.vars, a.destVariable, valueToString(extractValue(json, a.valueExtractor)), a.scope);
  }
  if (!step.doRouting) return undefined;
  const next = route(step, json, ctx);
  if (!next) return fail(step, ctx, 'no module matches the routing value');
  return { goto: next };
}
