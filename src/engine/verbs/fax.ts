import type { Fax } from '../../rcml/model.js';
import { sendMessage } from './message.js';
import type { VerbContext, VerbOutcome } from './types.js';

const FAX = { verb: 'Fax', kind: 'fax', prefix: 'FX', callbackKind: 'message-status-callback' } as const;

/**
 * Sends a fax of the document its text names (a URL, relative to the RCML document): a
 * Message record (kind `fax`, the absolute URL as body) from the called number to the caller
 * unless `from`/`to` say otherwise, as the platform's BaseVoiceInterpreter.Faxing does; the
 * action gets `FaxSid` and `FaxStatus`. A text that is not a URI is error 11100 and hangs up.
 */
export async function faxVerb(ctx: VerbContext, verb: Fax): Promise<VerbOutcome> {
  const url = verb.text ? ctx.resolveUrl(verb.text) : undefined;
  if (!url) {
    ctx.notify('11100', 0, `Fax: invalid document URL '${verb.text}'`);
    return { kind: 'hangup' };
  }
  return sendMessage(ctx, verb, FAX, {
    from: verb.from ?? ctx.call.to,
    to: verb.to ?? ctx.call.from,
    body: url,
    status: 'sent',
  });
}
