import { Call } from './call.js';
import { inboundSetup } from './call-setups.js';
import { quoteReceived } from './params.js';
import type { CallLine } from './ports/call-line.js';
import type { CallRecord } from './records.js';
import type { Runtime } from './runtime.js';
import type { IncomingCallOptions, NumberConfig } from './types.js';

/**
 * Starts the call of a party at `from` to `to` (`Engine.incomingCall`, `Engine.acceptCall` with
 * the embedder's `line`). It rings while the voice URL of `number`, the routing of `to`, is
 * fetched; with no routing it fails at once with a notification.
 */
export function startInboundCall(
  rt: Runtime<Call>,
  from: string,
  to: string,
  number: NumberConfig | undefined,
  options: IncomingCallOptions,
  line?: CallLine,
): Readonly<CallRecord> {
  const record = rt.newCallRecord('inbound', from, to);
  const owner = number?.accountSid ?? options.accountSid;
  if (owner) record.accountSid = owner;
  record.callerName = options.callerName;
  record.forwardedFrom = options.forwardedFrom;
  record.phoneNumberSid = number?.sid;
  const call = new Call(rt, inboundSetup(rt, record, from, number, options, line));
  rt.live.set(record.sid, call);
  if (!number) {
    rt.notify(
      record.sid,
      'engine.unknown-number',
      0,
      `no voice configuration for number ${quoteReceived(to)}`,
    );
    call.end('failed', 'engine', 'unknown-number');
    return record;
  }
  call.begin();
  return record;
}
