import type { Context } from 'hono';
import type { EnterpriseError } from './errors.js';

/** The success envelope: `{code: 200, message: 'OK', data}`. */
export function ok(c: Context, data: unknown): Response {
  return c.json({ code: 200, message: 'OK', data }, 200);
}

/** Fields an error never echoes back from the request (they hold secrets). */
const SECRET_FIELDS = new Set(['password']);

/** The request echoed in an error's `data`, without its secrets. */
function withoutSecrets(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([k]) => !SECRET_FIELDS.has(k)));
}

/** The error body `{errorCode, message, data}` with the error's status; `data` never holds a password. */
export function errorBody(c: Context, err: EnterpriseError): Response {
  return c.json(
    { errorCode: err.errorCode, message: err.message, data: withoutSecrets(err.data ?? null) },
    err.status,
  );
}
