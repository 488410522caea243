/**
 * What the webhook validators of an application share: which signing key applies to a request
 * and whether its `X-Twilio-Signature` matches (the engine's {@link validateRequest}).
 */
import { type SignedParams, validateRequest } from '../../engine/signature.js';

/**
 * The signing key `rcml serve` printed beside the auth token (not the token: the server keeps
 * only a hash of that), or a function of the request's `AccountSid` returning its account's key
 * (undefined: an unknown account, refused).
 */
export type SigningKeySource =
  | string
  | ((accountSid: string) => string | undefined | Promise<string | undefined>);

/** Options of {@link validateWebhooks} and {@link expressValidateWebhooks}. */
export interface WebhookValidationOptions {
  signingKey: SigningKeySource;
  /**
   * `scheme://host[:port]` the platform called when a proxy stands in front of the application
   * (the signature covers the URL the platform requested, not the one the application sees).
   * Default: the request's own origin.
   */
  publicOrigin?: string;
}

/** The outcome of a check; `reason` says why a request was refused. */
export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

/** A request as the validators see it: full URL as called, form fields, the header. */
export interface WebhookRequest {
  url: string;
  params: SignedParams;
  signature: string | undefined;
}

/** `url` with its origin replaced by `publicOrigin` (path and query kept). */
export function asCalled(url: string, publicOrigin: string | undefined): string {
  if (!publicOrigin) return url;
  const u = new URL(url);
  return `${publicOrigin.replace(/\/+$/, '')}${u.pathname}${u.search}`;
}

function accountOf(url: string, params: SignedParams): string | undefined {
  const field = params.AccountSid;
  if (typeof field === 'string') return field;
  if (Array.isArray(field)) return field[0];
  return new URL(url).searchParams.get('AccountSid') ?? undefined;
}

/** Checks one request's signature with the key its account signs with. */
export async function checkWebhook(
  request: WebhookRequest,
  source: SigningKeySource,
): Promise<WebhookVerdict> {
  if (!request.signature) return { ok: false, reason: 'no X-Twilio-Signature header' };
  let key: string | undefined;
  if (typeof source === 'string') key = source;
  else {
    const account = accountOf(request.url, request.params);
    if (!account) return { ok: false, reason: 'no AccountSid parameter to choose a signing key by' };
    key = await source(account);
    if (!key) return { ok: false, reason: `no signing key for account ${account}` };
  }
  return validateRequest(key, request.signature, request.url, request.params)
    ? { ok: true }
    : {
        ok: false,
        reason: 'X-Twilio-Signature does not match (signed with the signing key, not the auth token)',
      };
}
