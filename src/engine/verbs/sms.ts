import type { Sms } from '../../rcml/model.js';
import { sendMessage } from './message.js';
import type { VerbContext, VerbOutcome } from './types.js';

const SMS = { verb: 'Sms', kind: 'sms', prefix: 'SM', callbackKind: 'sms-status-callback' } as const;

/**
 * Sends a message (a Message record) from the called number to the caller unless `from`/`to`
 * say otherwise. The action gets `SmsSid` and `SmsStatus`; `statusCallback` is notified too.
 * An empty body is error 14103 and hangs up (the platform's interpreter stops on it).
 */
export async function smsVerb(ctx: VerbContext, verb: Sms): Promise<VerbOutcome> {
  if (!verb.text.trim()) {
    ctx.notify('14103', 0, 'Sms: message body is empty');
    return { kind: 'hangup' };
  }
  return sendMessage(ctx, verb, SMS, {
    from: verb.from ?? ctx.call.to,
    to: verb.to ?? ctx.call.from,
    body: verb.text,
    status: 'sent',
  });
}
