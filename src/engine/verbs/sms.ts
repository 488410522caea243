import type { Sms } from '../../rcml/model.js';
import { smsDefaults } from '../../rcml/verbs/sms.js';
import type { MessageRecord } from '../records.js';
import { actionOutcome } from './action.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * Sends a message (a Message record) from the called number to the caller unless `from`/`to`
 * say otherwise. The action gets `SmsSid` and `SmsStatus`; `statusCallback` is notified too.
 */
export async function smsVerb(ctx: VerbContext, verb: Sms): Promise<VerbOutcome> {
  if (!verb.text.trim()) {
    ctx.notify('14103', 1, 'Sms: message body is empty; skipped');
    return NEXT;
  }
  const record: MessageRecord = {
    sid: ctx.newSid('SM'),
    accountSid: ctx.call.accountSid,
    callSid: ctx.call.sid,
    kind: 'sms',
    from: verb.from ?? ctx.call.to,
    to: verb.to ?? ctx.call.from,
    body: verb.text,
    status: 'sent',
    dateCreated: ctx.now(),
  };
  ctx.message(record);
  const result = { SmsSid: record.sid, SmsStatus: record.status };
  if (verb.statusCallback) {
    const url = ctx.resolveUrl(verb.statusCallback);
    if (url) {
      ctx.send('sms-status-callback', url, 'POST', {
        ...result,
        AccountSid: record.accountSid,
        From: record.from,
        To: record.to,
        Body: record.body,
      });
    } else ctx.notify('11100', 1, `Sms: invalid statusCallback '${verb.statusCallback}'`);
  }
  if (!verb.action) return NEXT;
  return actionOutcome(ctx, 'Sms', verb.action, verb.method ?? smsDefaults.method, ctx.params(result));
}
