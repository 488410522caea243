import type { Email, Fax, Sms } from '../../rcml/model.js';
import { messageDefaults } from '../../rcml/verbs/message.js';
import type { MessageRecord } from '../records.js';
import type { RequestKind } from '../types.js';
import { actionOutcome } from './action.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** How one message verb names its record and its result parameters. */
export interface MessageKind {
  verb: 'Sms' | 'Email' | 'Fax';
  kind: MessageRecord['kind'];
  /** Sid prefix of its records. */
  prefix: string;
  /** Status callback request kind. */
  callbackKind: RequestKind;
}

/** What a message verb sends: addresses, body, and whether it could be sent. */
export interface Outgoing {
  from: string;
  to: string;
  body: string;
  status: MessageRecord['status'];
}

/**
 * Writes the Message record of a Sms, Email or Fax, notifies its `statusCallback` and requests
 * its action with `<Verb>Sid` and `<Verb>Status` (`SmsSid`, `EmailStatus`, `FaxSid`...). Without
 * an action the next verb runs.
 */
export function sendMessage(
  ctx: VerbContext,
  verb: Sms | Email | Fax,
  kind: MessageKind,
  out: Outgoing,
): VerbOutcome {
  const record: MessageRecord = {
    sid: ctx.newSid(kind.prefix),
    accountSid: ctx.call.accountSid,
    callSid: ctx.call.sid,
    kind: kind.kind,
    from: out.from,
    to: out.to,
    body: out.body,
    status: out.status,
    dateCreated: ctx.now(),
  };
  ctx.message(record);
  const result = { [`${kind.verb}Sid`]: record.sid, [`${kind.verb}Status`]: record.status };
  if (verb.statusCallback) {
    const url = ctx.resolveUrl(verb.statusCallback);
    if (url) {
      ctx.send(kind.callbackKind, url, 'POST', {
        ...result,
        AccountSid: record.accountSid,
        From: record.from,
        To: record.to,
        Body: record.body,
      });
    } else ctx.notify('11100', 1, `${kind.verb}: invalid statusCallback '${verb.statusCallback}'`);
  }
  if (!verb.action) return NEXT;
  return actionOutcome(
    ctx,
    kind.verb,
    verb.action,
    verb.method ?? messageDefaults.method,
    ctx.params(result),
  );
}
