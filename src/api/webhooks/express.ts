/**
 * An Express middleware (also for any framework with Express's `req`/`res`/`next`) that refuses
 * webhook requests whose `X-Twilio-Signature` does not match. Typed structurally, so using it
 * needs no Express types.
 */
import type { SignedParams } from '../../engine/signature.js';
import { asCalled, checkWebhook, type WebhookValidationOptions } from './check.js';

/** What the middleware reads of Express's request. */
export interface ExpressLikeRequest {
  method: string;
  protocol: string;
  originalUrl: string;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body?: unknown;
}

/** What it uses of Express's response. */
export interface ExpressLikeResponse {
  status(code: number): { send(body: string): unknown };
}

function formOf(req: ExpressLikeRequest): SignedParams | Error {
  if (req.method !== 'POST') return {};
  if (req.body === undefined || req.body === null || typeof req.body !== 'object') {
    return new Error(
      'expressValidateWebhooks: the form is not parsed; mount express.urlencoded({ extended: false }) before it',
    );
  }
  return req.body as SignedParams;
}

/**
 * Validates the platform's webhook requests: 403 with the reason on a signature that does not
 * match (the next handlers do not run); an error to `next` when the form was not parsed.
 *
 * ```ts
 * app.use(express.urlencoded({ extended: false }));
 * app.use('/voice', expressValidateWebhooks({ signingKey: process.env.RCML_SIGNING_KEY! }));
 * ```
 */
export function expressValidateWebhooks(
  options: WebhookValidationOptions,
): (req: ExpressLikeRequest, res: ExpressLikeResponse, next: (err?: unknown) => void) => void {
  return (req, res, next) => {
    const params = formOf(req);
    if (params instanceof Error) {
      next(params);
      return;
    }
    const host = req.headers.host;
    const signature = req.headers['x-twilio-signature'];
    const url = asCalled(
      `${req.protocol}://${typeof host === 'string' ? host : 'localhost'}${req.originalUrl}`,
      options.publicOrigin,
    );
    checkWebhook(
      { url, params, signature: typeof signature === 'string' ? signature : undefined },
      options.signingKey,
    ).then((verdict) => {
      if (verdict.ok) next();
      else res.status(403).send(`webhook refused: ${verdict.reason}`);
    }, next);
  };
}
