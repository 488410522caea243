/**
 * Route declarations: each REST route carries its operation (id, tag, parameters, body,
 * responses as zod schemas) as a middleware placed before its handler. The OpenAPI document is
 * built from the declarations found on the app's routes; handlers validate with the same
 * schemas, so documentation and validation come from one source.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { badParameter } from '../http/errors.js';
import { queryOf } from '../http/params.js';

/** One answer of an operation. */
export interface ResponseDeclaration {
  description: string;
  /** The JSON body (omit for an empty body or a non-JSON one, see `contentType`). */
  schema?: z.ZodType;
  /** Media type of a body that is not JSON (`audio/wav`, `text/plain`...): documented as bytes or text. */
  contentType?: string;
}

/**
 * The `.json` / `.xml` suffix convention of `{api_root}`: the path answers JSON with `.json`,
 * XML with `.xml`, and `bare` without a suffix. `xml: false`: the `.xml` path exists but
 * answers 406 (JSON-only resources).
 */
export interface FormatSuffixes {
  bare: 'json' | 'xml';
  xml?: boolean;
}

/** Where a request body's fields are declared: form-encoded (also accepted as a JSON object), or JSON only. */
export interface BodyDeclaration {
  /** Fields of a form-encoded body; the same object is accepted as JSON. */
  form?: z.ZodType;
  /** A JSON body. */
  json?: z.ZodType;
  /** Other media types the route reads (`multipart/form-data`, `application/zip`...), documented as bytes. */
  raw?: string[];
  description?: string;
}

/** A route's operation. */
export interface RouteDeclaration {
  /** Unique and stable: the typed client's method name (`listCalls`, `createCall`). */
  operationId: string;
  /** The area's tag (`Calls`, `Sim`, `Call Queuing`...). */
  tag: string;
  summary: string;
  description?: string;
  /**
   * OpenAPI path template of the route relative to where it is mounted, parameters in braces
   * with their documented names (`/Accounts/{AccountSid}/Calls/{CallSid}`). Default: the hono
   * path, `:name` written `{name}`. With `formats`, the path without its suffix.
   */
  path?: string;
  /** Path parameters by name (default: text). */
  params?: Record<string, z.ZodType>;
  /**
   * Query parameters (a zod object of text fields). The handler validates with it where its
   * checks belong (after authentication and ownership): `parseQuery(declaration.query, queryOf(c))`
   * for the platform's 400, or the area's own error body.
   */
  query?: z.ZodObject;
  body?: BodyDeclaration;
  /** Answers by status; any other status is an error body (the `Error` component). */
  responses: Record<number, ResponseDeclaration>;
  /** `none`: answered without credentials. Default: HTTP Basic. */
  auth?: 'basic' | 'none';
  formats?: FormatSuffixes;
  deprecated?: boolean;
}

/** What the response check needs of an operation (a {@link RouteDeclaration} has it). */
export interface CheckedOperation {
  operationId: string;
  responses: Record<number, ResponseDeclaration>;
  /** An answer with a status not in `responses` is a mismatch (else: an error body). */
  strictStatuses?: boolean;
}

/** What a response check is told of: the operation answered and the response. */
export interface CheckedResponse {
  declaration: CheckedOperation;
  /** The format the path asks for (a path without suffix: the bare format of its declaration). */
  format: 'json' | 'xml';
  method: string;
  path: string;
  response: Response;
}

/** Called with every response of a declared route when set (the test suite checks them against the document). */
export type ResponseCheck = (checked: CheckedResponse) => Promise<void> | void;

let responseCheck: ResponseCheck | undefined;

/** Sets (or clears, with `undefined`) the check run on every response of a declared route. */
export function setResponseCheck(check: ResponseCheck | undefined): void {
  responseCheck = check;
}

/** The check set by {@link setResponseCheck}, if any. */
export const currentResponseCheck = (): ResponseCheck | undefined => responseCheck;

const DECLARATIONS = Symbol('rcml.openapi.declarations');

type DeclaringMiddleware = MiddlewareHandler & { [DECLARATIONS]: readonly RouteDeclaration[] };

/** The format a request path asks for under a declaration's suffix convention. */
export function formatOf(declaration: RouteDeclaration, path: string): 'json' | 'xml' {
  if (!declaration.formats) return 'json';
  if (path.endsWith('.json')) return 'json';
  if (path.endsWith('.xml')) return 'xml';
  return declaration.formats.bare;
}

/** Whether a request path is the one of a declaration (its last segments match its template). */
function pathMatcher(declaration: RouteDeclaration): (path: string) => boolean {
  if (!declaration.path) return () => true;
  const tail = declaration.path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const suffix = declaration.formats ? '(\\.json|\\.xml)?' : '';
  const re = new RegExp(`${tail}${suffix}$`);
  return (path) => re.test(path);
}

/**
 * The first zod issue of a query as the platform's 400 (`invalid-parameter` naming it), in the
 * order the schema declares its fields.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, query: Record<string, string>): z.output<S> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const order = Object.keys(schema.shape);
  const rank = (name: PropertyKey | undefined) => {
    const i = order.indexOf(String(name));
    return i < 0 ? order.length : i;
  };
  const issue = [...result.error.issues].sort((a, b) => rank(a.path[0]) - rank(b.path[0]))[0];
  throw badParameter(String(issue.path[0] ?? 'query'), issue.message);
}

/**
 * The request's query (each parameter given once, else 400), checked against the declared one:
 * the platform's 400 naming the first bad parameter. Every parameter is kept, declared or not.
 */
export function declaredQuery(c: Context, declaration: RouteDeclaration): Record<string, string> {
  const query = queryOf(c);
  if (declaration.query) parseQuery(declaration.query, query);
  return query;
}

/**
 * Declares a route: put the returned middleware before the handler. Several declarations share
 * one hono route when their paths differ (a record and its `.wav` file); the request's path
 * picks the one that applies.
 */
export function declareRoute(...declarations: RouteDeclaration[]): MiddlewareHandler {
  const matchers = declarations.map((d) => [d, pathMatcher(d)] as const);
  // A declaration without suffixes is more specific than one whose bare path takes any segment.
  matchers.sort(([a], [b]) => Number(Boolean(a.formats)) - Number(Boolean(b.formats)));
  const pick = (path: string) =>
    matchers.length === 1 ? declarations[0] : (matchers.find(([, m]) => m(path))?.[0] ?? declarations[0]);
  const middleware: MiddlewareHandler = async (c: Context, next) => {
    const declaration = pick(c.req.path);
    await next();
    const check = responseCheck;
    if (check) {
      await check({
        declaration,
        format: formatOf(declaration, c.req.path),
        method: c.req.method,
        path: c.req.path,
        response: c.res.clone(),
      });
    }
  };
  return Object.assign(middleware, { [DECLARATIONS]: declarations }) satisfies DeclaringMiddleware;
}

/** Where hono keeps a handler it wrapped when mounting a sub-app that has its own error handler. */
const COMPOSED_HANDLER = '__COMPOSED_HANDLER';

/** The declarations a route handler carries (none for an undeclared handler). */
export function declarationsOf(handler: unknown): readonly RouteDeclaration[] {
  let h = handler as (Partial<DeclaringMiddleware> & { [COMPOSED_HANDLER]?: unknown }) | undefined;
  while (h && !h[DECLARATIONS] && h[COMPOSED_HANDLER]) h = h[COMPOSED_HANDLER] as typeof h;
  return h?.[DECLARATIONS] ?? [];
}
