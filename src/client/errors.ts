import type { ErrorBody } from './types.js';

/**
 * An answer of the API other than a success: its HTTP status and, when the body is the API's
 * error body, the platform's numeric `code`, `message` and `more_info` (every code is listed in
 * the package's docs/errors.md).
 */
export class RcmlApiError extends Error {
  override readonly name = 'RcmlApiError';
  /** HTTP status of the answer (400, 401, 404, 409, 429, 503...). */
  readonly status: number;
  /**
   * The platform's numeric code (`21211` an invalid `To`, `20404` an unknown record...);
   * `undefined` when the body was not the API's error body (a proxy's page, say).
   */
  readonly code: number | undefined;
  /** Where the code is described (`docs/errors.md#21211`); `''` when the body had none. */
  readonly moreInfo: string;
  /** The request parameter the error is about, when the API names one. */
  readonly parameter: string | undefined;
  /** The API's short name of the error (`invalid-parameter`, `not-live`...), when given. */
  readonly kind: string | undefined;
  /** Seconds to wait before trying again, from `Retry-After` (429 and 503 answers). */
  readonly retryAfter: number | undefined;
  /** Method and URL of the request that failed. */
  readonly request: { method: string; url: string };

  constructor(init: {
    status: number;
    code?: number;
    message: string;
    moreInfo?: string;
    parameter?: string;
    kind?: string;
    retryAfter?: number;
    request: { method: string; url: string };
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.moreInfo = init.moreInfo ?? '';
    this.parameter = init.parameter;
    this.kind = init.kind;
    this.retryAfter = init.retryAfter;
    this.request = init.request;
  }
}

/** What the client needs of the API's error body to call it one. */
type ErrorFields = Pick<ErrorBody, 'code' | 'message'> &
  Partial<Record<'more_info' | 'parameter' | 'kind', unknown>>;

function isErrorBody(body: unknown): body is ErrorFields {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'number' && typeof b.message === 'string';
}

const optionalText = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** `Retry-After` in seconds (the API sends whole seconds; an HTTP date is read too). */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The {@link RcmlApiError} of a failed answer (its body is read here). */
export async function errorOf(
  res: Response,
  request: { method: string; url: string },
): Promise<RcmlApiError> {
  const text = await res.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const retryAfter = retryAfterOf(res.headers.get('Retry-After'));
  if (isErrorBody(body)) {
    return new RcmlApiError({
      status: res.status,
      code: body.code,
      message: body.message,
      moreInfo: optionalText(body.more_info),
      parameter: optionalText(body.parameter),
      kind: optionalText(body.kind),
      retryAfter,
      request,
    });
  }
  const excerpt = text.trim().slice(0, 200);
  return new RcmlApiError({
    status: res.status,
    message: `${request.method} ${request.url} answered ${res.status}${excerpt === '' ? '' : `: ${excerpt}`}`,
    retryAfter,
    request,
  });
}
