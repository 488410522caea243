/** Runs a compiled app as an in-process handler of the call engine (no HTTP). */
import type { CompiledApp } from './compile.js';

/** Request the engine hands to an in-process handler. */
export interface DesignerRequest {
  url: string;
  method: 'GET' | 'POST';
  params: Record<string, string>;
}

/** Response of an in-process handler. */
export interface DesignerResponse {
  status: number;
  contentType: string;
  body: string;
}

/** Options of {@link createDesignerHandler}. */
export interface DesignerHandlerOptions {
  /** Base used to parse relative request URLs. Default `http://localhost/`. */
  baseUrl?: string;
}

/**
 * Wraps a compiled app as `(req) => Promise<response>`. The target comes from the request
 * URL's `target` query parameter or from `params.target`; every other query and body parameter
 * is a request parameter (body parameters win).
 */
export function createDesignerHandler(
  app: CompiledApp,
  options: DesignerHandlerOptions = {},
): (req: DesignerRequest) => Promise<DesignerResponse> {
  const base = options.baseUrl ?? 'http://localhost/';
  return async (req) => {
    let query: URLSearchParams;
    try {
      query = new URL(req.url, base).searchParams;
    } catch {
      return { status: 400, contentType: 'text/plain', body: `invalid request URL: ${req.url}` };
    }
    const params: Record<string, string> = {};
    for (const [name, value] of query) params[name] = value;
    Object.assign(params, req.params);
    const target = params.target ?? '';
    delete params.target;
    const result = await app.render(target, params);
    return { status: 200, contentType: 'application/xml', body: result.xml };
  };
}
