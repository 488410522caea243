/** A hono middleware that refuses webhook requests whose `X-Twilio-Signature` does not match. */
import type { MiddlewareHandler } from 'hono';
import type { SignedParams } from '../../engine/signature.js';
import { asCalled, checkWebhook, type WebhookValidationOptions } from './check.js';

/** The form fields of a POST (repeated fields as lists), `{}` for any other request. */
async function formOf(req: Parameters<MiddlewareHandler>[0]['req']): Promise<SignedParams> {
  if (req.method !== 'POST') return {};
  const type = req.header('Content-Type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return {};
  const body = await req.parseBody({ all: true });
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    params[name] = values.length === 1 ? values[0] : values;
  }
  return params;
}

/**
 * Validates the platform's webhook requests to a hono application: a request whose
 * `X-Twilio-Signature` does not match its URL and form fields for the signing key answers 403
 * with the reason, and reaches no handler. The form stays readable (`c.req.parseBody()`).
 *
 * ```ts
 * app.use('/voice/*', validateWebhooks({ signingKey: process.env.RCML_SIGNING_KEY! }));
 * ```
 */
export function validateWebhooks(options: WebhookValidationOptions): MiddlewareHandler {
  return async (c, next) => {
    const verdict = await checkWebhook(
      {
        url: asCalled(c.req.url, options.publicOrigin),
        params: await formOf(c.req),
        signature: c.req.header('X-Twilio-Signature'),
      },
      options.signingKey,
    );
    if (!verdict.ok) return c.text(`webhook refused: ${verdict.reason}`, 403);
    await next();
  };
}
