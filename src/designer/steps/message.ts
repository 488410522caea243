/** sms / email / fax -> `<Sms|Email|Fax to from ... statusCallback method action>text</...>`. */
import type { Email, Fax, Sms } from '../../rcml/model.js';
import { link, type RenderContext } from '../context.js';
import type { Step } from '../schema.js';
import { expand } from '../variables.js';

type MessageStep = Extract<Step, { kind: 'sms' | 'email' | 'fax' }>;

/** Request parameters the message action handlers store as `core_*`. */
export const MESSAGE_RESULT_PARAMETERS = {
  sms: ['SmsSid', 'SmsStatus'],
  email: ['EmailSid', 'EmailStatus'],
  fax: ['FaxSid', 'FaxStatus'],
} as const;

const VERB = { sms: 'Sms', email: 'Email', fax: 'Fax' } as const;

/** Renders a message step (SmsStep/EmailStep/FaxStep.render). */
export function renderMessage(step: MessageStep, module: string, ctx: RenderContext): Sms | Email | Fax {
  const message: Sms | Email | Fax = { verb: VERB[step.kind], text: expand(step.text, ctx.vars) };
  if (step.to) message.to = expand(step.to, ctx.vars);
  if (step.from) message.from = expand(step.from, ctx.vars);
  if (step.kind === 'email' && message.verb === 'Email') {
    if (step.subject) message.subject = expand(step.subject, ctx.vars);
    if (step.cc) message.cc = expand(step.cc, ctx.vars);
    if (step.bcc) message.bcc = expand(step.bcc, ctx.vars);
  }
  // The status callback is written as saved; `method` goes only with `action` (set by `next`).
  if (step.statusCallback) message.statusCallback = step.statusCallback;
  if (step.next) {
    message.action = link(ctx, `${module}.${step.name}.actionhandler`);
    if (step.method) message.method = step.method;
  }
  return message;
}
