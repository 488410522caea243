import type { Email } from '../../rcml/model.js';
import { sendMessage } from './message.js';
import type { VerbContext, VerbOutcome } from './types.js';

const EMAIL = {
  verb: 'Email',
  kind: 'email',
  prefix: 'EM',
  callbackKind: 'message-status-callback',
} as const;

/** Warning of an Email without `from` or `to` (the engine's own code, listed in docs/engine.md). */
export const EMAIL_ADDRESS_CODE = '14110';

/**
 * Sends an email: a Message record (kind `email`) with the text as body, then the action with
 * `EmailSid` and `EmailStatus`. `from` and `to` have no default (the platform's
 * BaseVoiceInterpreter.SendingEmail refuses the mail without them): a missing one is warning
 * 14110 and the record is `failed`.
 */
export async function emailVerb(ctx: VerbContext, verb: Email): Promise<VerbOutcome> {
  const from = verb.from?.trim() ?? '';
  const to = verb.to?.trim() ?? '';
  const missing = [from ? '' : 'from', to ? '' : 'to'].filter((a) => a !== '');
  if (missing.length > 0) {
    ctx.notify(EMAIL_ADDRESS_CODE, 1, `Email: no ${missing.join(' nor ')} attribute; not sent`);
  }
  return sendMessage(ctx, verb, EMAIL, {
    from,
    to,
    body: verb.text,
    status: missing.length > 0 ? 'failed' : 'sent',
  });
}
