import { iso } from './dates.js';
import { API_VERSION, type CallRecord } from './records.js';

/**
 * Parameters sent with every request about a call (reference/rcml.md, "Request parameters").
 * `CallTimestamp` is ISO 8601 with milliseconds, as the platform's VoiceInterpreter.parameters()
 * prints the call's creation time.
 */
export function voiceParams(
  call: Readonly<CallRecord>,
  headers?: Record<string, string>,
  callTimestamp: string = iso(call.dateCreated),
): Record<string, string> {
  const params: Record<string, string> = {
    CallSid: call.sid,
    AccountSid: call.accountSid,
    From: call.from,
    To: call.to,
    CallStatus: call.status,
    ApiVersion: API_VERSION,
    Direction: call.direction,
    CallerName: call.callerName ?? '',
    ForwardedFrom: call.forwardedFrom ?? '',
    InstanceId: call.instanceId,
    CallTimestamp: callTimestamp,
  };
  if (call.parentCallSid) params.ParentCallSid = call.parentCallSid;
  if (headers) for (const name in headers) params[`SipHeader_${name}`] = headers[name];
  return params;
}

/**
 * Parameters of a Dial noun's screening document, run on the callee: the set the platform's
 * SubVoiceInterpreter.parameters() sends (no InstanceId, CallTimestamp nor ParentCallSid), plus
 * the leg's custom SIP headers.
 */
export function screeningParams(
  call: Readonly<CallRecord>,
  headers?: Record<string, string>,
): Record<string, string> {
  const params: Record<string, string> = {
    CallSid: call.sid,
    AccountSid: call.accountSid,
    From: call.from,
    To: call.to,
    CallStatus: call.status,
    ApiVersion: API_VERSION,
    Direction: call.direction,
    CallerName: call.callerName ?? '',
    ForwardedFrom: call.forwardedFrom ?? '',
  };
  if (headers) for (const name in headers) params[`SipHeader_${name}`] = headers[name];
  return params;
}

/**
 * Splits a `sip:` target into its address and custom headers (`?X-Foo=1&X-Bar=2`). Other
 * targets have no headers.
 */
export function splitTarget(to: string): { address: string; headers?: Record<string, string> } {
  const q = to.indexOf('?');
  if (!to.startsWith('sip:') || q < 0) return { address: to };
  const headers: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(to.slice(q + 1))) headers[k] = v;
  return { address: to.slice(0, q), headers };
}
