import type { Context } from 'hono';
import type { EnterpriseError } from './errors.js';

/** The success envelope: `{code: 200, message: 'OK', data}`. */
export function ok(c: Context, data: unknown): Response {
  return c.json({ code: 200, message: 'OK', data }, 200);
}

/** The error body `{errorCode, message, data}` with the error's status. */
export function errorBody(c: Context, err: EnterpriseError): Response {
  return c.json({ errorCode: err.errorCode, message: err.message, data: err.data ?? null }, err.status);
}
