import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ENTERPRISE_ERRORS, type EnterpriseErrorName } from './codes.js';

/**
 * An error of the enterprise areas, answered as `{errorCode, message, data}`: the platform's codes
 * with HTTP 409, bad input (`invalid-parameter`) with 400, an unknown route with 404.
 */
export class EnterpriseError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly errorCode: string,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'EnterpriseError';
  }
}

/**
 * One of the platform's codes. `data` echoes the request body, the offending sid or a name;
 * `detail` is appended to the platform's message when it says more (e.g. which role rule refused).
 */
export function specError(name: EnterpriseErrorName, data: unknown, detail?: string): EnterpriseError {
  const { code, message } = ENTERPRISE_ERRORS[name];
  return new EnterpriseError(409, code, detail ? `${message}: ${detail}` : message, data);
}

/** 400 for a malformed or missing input, naming it first in the message. */
export function invalidParameter(parameter: string, message: string, data: unknown): EnterpriseError {
  return new EnterpriseError(400, 'invalid-parameter', `${parameter}: ${message}`, data);
}
