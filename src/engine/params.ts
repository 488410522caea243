import { iso } from './dates.js';
import { API_VERSION, type CallRecord } from './records.js';

/**
 * SIP headers of a call by name: a header that repeats (`Diversion`, `History-Info`) has its
 * values top-most first.
 */
export type SipHeaders = Readonly<Record<string, string | readonly string[]>>;

/**
 * Joins the values of a repeated parameter inside the one string a request's parameters hold
 * per name. A SIP header value never holds a line break (RFC 3261 unfolds them), so a newline
 * cannot be mistaken for part of a value; {@link formPairs} turns it back into repeated fields.
 */
export const REPEATED_VALUES = '\n';

/** Adds `SipHeader_<name>` parameters, a repeated header's values joined by {@link REPEATED_VALUES}. */
function addSipHeaders(params: Record<string, string>, headers: SipHeaders | undefined): void {
  if (!headers) return;
  for (const name in headers) {
    const value = headers[name];
    params[`SipHeader_${name}`] = typeof value === 'string' ? value : value.join(REPEATED_VALUES);
  }
}

/**
 * The values a parameter stands for on the wire: a `SipHeader_` parameter holding several
 * values (see {@link REPEATED_VALUES}) is one field per value, in order; any other, one.
 */
export function fieldValues(name: string, value: string): string[] {
  return name.startsWith('SipHeader_') && value.includes(REPEATED_VALUES)
    ? value.split(REPEATED_VALUES)
    : [value];
}

/** A request's parameters as form fields, a repeated one once per value (see {@link fieldValues}). */
export function formPairs(params: Readonly<Record<string, string>>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const name in params) {
    for (const v of fieldValues(name, params[name])) pairs.push([name, v]);
  }
  return pairs;
}

/** Characters a form-encoded value keeps as they are (application/x-www-form-urlencoded). */
const FORM_PLAIN = /^[\w*.-]*$/;
/** What `encodeURIComponent` leaves or writes that the form encoding writes otherwise. */
const FORM_FIXES: Readonly<Record<string, string>> = {
  '!': '%21',
  "'": '%27',
  '(': '%28',
  ')': '%29',
  '~': '%7E',
  '%20': '+',
};

/** `text` form-encoded exactly as `URLSearchParams` prints it (a lone surrogate becomes U+FFFD). */
function formEncode(text: string): string {
  if (FORM_PLAIN.test(text)) return text;
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
  return encoded.replace(/[!'()~]|%20/g, (m) => FORM_FIXES[m]);
}

/** Parameter names as encoded: every request repeats the same few (CallSid, AccountSid...). */
const encodedNames = new Map<string, string>();

/**
 * A request's parameters form-encoded (a POST's body, a GET's query), a repeated one once per
 * value (see {@link fieldValues}): what `new URLSearchParams(formPairs(params))` prints, without
 * the per-field objects.
 */
export function formBody(params: Readonly<Record<string, string>>): string {
  let out = '';
  for (const name in params) {
    const value = params[name];
    let key = encodedNames.get(name);
    if (key === undefined) {
      key = formEncode(name);
      if (encodedNames.size >= 1024) encodedNames.clear();
      encodedNames.set(name, key);
    }
    if (value.includes(REPEATED_VALUES) && name.startsWith('SipHeader_')) {
      for (const v of value.split(REPEATED_VALUES)) out += `${out ? '&' : ''}${key}=${formEncode(v)}`;
    } else out += `${out ? '&' : ''}${key}=${formEncode(value)}`;
  }
  return out;
}

/**
 * Parameters sent with every request about a call (reference/rcml.md, "Request parameters").
 * `CallTimestamp` is ISO 8601 with milliseconds, as the platform's VoiceInterpreter.parameters()
 * prints the call's creation time.
 */
export function voiceParams(
  call: Readonly<CallRecord>,
  headers?: SipHeaders,
  callTimestamp: string = iso(call.dateCreated),
): Record<string, string> {
  // One literal, in the same order as `callParams` and the two added: no properties added after.
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
  addSipHeaders(params, headers);
  return params;
}

/** The parameters every request about a call starts with, in the platform's order. */
function callParams(call: Readonly<CallRecord>): Record<string, string> {
  return {
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
}

/**
 * Parameters of a Dial noun's screening document, run on the callee: the set the platform's
 * SubVoiceInterpreter.parameters() sends (no InstanceId, CallTimestamp nor ParentCallSid), plus
 * the leg's custom SIP headers.
 */
export function screeningParams(call: Readonly<CallRecord>, headers?: SipHeaders): Record<string, string> {
  const params = callParams(call);
  addSipHeaders(params, headers);
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

/**
 * A received address as an error message quotes it (JSON string, at most 40 characters), with
 * the likely cause when it starts with a space: a `+` sent unencoded in a form body, which the
 * form encoding reads as a space (`curl -d To=+1555...`).
 */
export function quoteReceived(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
  const hint = /^ [0-9]/.test(value)
    ? "; a leading space is a '+' sent unencoded in a form body: send %2B (curl --data-urlencode)"
    : '';
  return `${JSON.stringify(shown)}${hint}`;
}
