import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { create } from 'xmlbuilder2';

/**
 * An error the client caused (or a capability the server lacks), answered with its status and a
 * body `{code, message, more_info, status, parameter?, kind}` (XML on `.xml` paths). `kind` is
 * the short name of the error; `parameter` names the offending input.
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

/**
 * Numeric codes by error kind, in the platform's (and Twilio's) code families. Stable: clients
 * match on them. `docs/errors.md` lists every one.
 */
export const CODE_OF_KIND: Readonly<Record<string, number>> = {
  'invalid-parameter': 21100,
  'malformed-body': 20002,
  unauthorized: 20003,
  'method-not-allowed': 20004,
  forbidden: 20403,
  'account-not-active': 20005,
  'not-found': 20404,
  'json-only': 20406,
  'not-live': 21220,
  'clock-not-virtual': 20409,
  'body-too-large': 20413,
  'unsupported-media-type': 20415,
  'internal-error': 20500,
  'no-call-engine': 20501,
  'no-simulation': 20501,
  unsupported: 20501,
  invalid: 21100,
  unavailable: 20503,
  'too-many-requests': 20429,
  'too-many-live-calls': 21230,
};

/** Codes of invalid or missing parameters that have one of their own (else 21100). */
const CODE_OF_PARAMETER: Readonly<Record<string, { invalid: number; missing: number }>> = {
  To: { invalid: 21211, missing: 21201 },
  From: { invalid: 21212, missing: 21213 },
  Url: { invalid: 21205, missing: 21205 },
  FallbackUrl: { invalid: 21206, missing: 21206 },
  StatusCallback: { invalid: 21609, missing: 21609 },
  Status: { invalid: 21218, missing: 21218 },
};

/** Where each code is described. */
export const ERRORS_DOC = 'docs/errors.md';

/** The numeric code of an error. */
export function numericCode(err: ApiError): number {
  const byParameter = err.parameter === undefined ? undefined : CODE_OF_PARAMETER[err.parameter];
  if (byParameter && (err.code === 'invalid-parameter' || err.code === 'invalid')) {
    return err.message.endsWith('is required') ? byParameter.missing : byParameter.invalid;
  }
  // Kinds without a code of their own: 20000 + the HTTP status (20409 for a conflict).
  return CODE_OF_KIND[err.code] ?? 20000 + err.status;
}

/** The fields of an error body, in the platform's order, with `parameter` and `kind` as extras. */
export function errorFields(err: ApiError): Record<string, string | number> {
  const code = numericCode(err);
  const body: Record<string, string | number> = {
    code,
    message: err.message,
    more_info: `${ERRORS_DOC}#${code}`,
    status: err.status,
  };
  if (err.parameter !== undefined) body.parameter = err.parameter;
  body.kind = err.code;
  return body;
}

/** Whether a path asks for XML (`.xml` suffix on its last or a middle segment). */
export const wantsXml = (path: string) => /\.xml(\/|$)/.test(path);

/** `<RestcommResponse><RestException><Code>...` for an error on an `.xml` path. */
export function errorXml(err: ApiError): string {
  const fields = errorFields(err);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('RestcommResponse');
  const ex = root.ele('RestException');
  ex.ele('Code').txt(String(fields.code));
  ex.ele('Message').txt(err.message);
  ex.ele('MoreInfo').txt(String(fields.more_info));
  ex.ele('Status').txt(String(err.status));
  if (err.parameter !== undefined) ex.ele('Parameter').txt(err.parameter);
  return root.end();
}

/** The body of an {@link ApiError}: XML on `.xml` paths, JSON otherwise. */
export function errorResponse(c: Context, err: ApiError, headers: Record<string, string> = {}): Response {
  if (wantsXml(c.req.path)) {
    return c.body(errorXml(err), err.status, {
      ...headers,
      'Content-Type': 'application/xml; charset=utf-8',
    });
  }
  return c.json(errorFields(err), err.status, headers);
}
