import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * An error the client caused (or a capability the server lacks), answered with its status and a
 * JSON body `{status, code, message, parameter?}`. `parameter` names the offending input.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 naming the parameter. */
export const badParameter = (parameter: string, message: string) =>
  new ApiError(400, 'invalid-parameter', `${parameter}: ${message}`, parameter);

/** 404 for a record the account does not have (also when another account has it). */
export const notFound = (what: string, sid: string) =>
  new ApiError(404, 'not-found', `${what} ${sid} not found`);

/** The JSON error body of an {@link ApiError}. */
export function errorResponse(c: Context, err: ApiError): Response {
  const body: Record<string, unknown> = { status: err.status, code: err.code, message: err.message };
  if (err.parameter !== undefined) body.parameter = err.parameter;
  return c.json(body, err.status);
}
