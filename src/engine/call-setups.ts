import type { Call, CallSetup } from './call.js';
import type { SipHeaders } from './params.js';
import type { CallLine } from './ports/call-line.js';
import type { InboundVoice } from './ports/inbound-voice.js';
import type { CallRecord } from './records.js';
import type { Runtime } from './runtime.js';
import { SimulatedLine } from './simulated-line.js';
import type { CallEventName } from './status-callbacks.js';
import type { CreateCallParams, IncomingCallOptions, NumberConfig } from './types.js';

export type { InboundVoice } from './ports/inbound-voice.js';

/** An incoming call on a line of the embedder's (`Engine.acceptCall`). */
export interface AcceptCallOptions extends IncomingCallOptions {
  /** The call's line to its far end (a SIP dialog, a media server's channel...). */
  line: CallLine;
  /** The caller (`From`). */
  from: string;
  /** The called number (`To`): a number routed with `setNumber`, or only reported with `voice`. */
  to: string;
  /**
   * The document to run instead of the routing of `to` (the voice URL of a client placing the
   * call, with its `accountSid`): fetched as for a routed number, no `phoneNumberSid`.
   */
  voice?: InboundVoice;
}

/** The routing `voice` stands for: a number configuration of its URLs, without sid or callbacks. */
export function voiceRouting(voice: InboundVoice): NumberConfig {
  return {
    voiceUrl: voice.url,
    voiceMethod: voice.method,
    voiceFallbackUrl: voice.fallbackUrl,
    voiceFallbackMethod: voice.fallbackMethod,
  };
}

/** How an outbound call placed with the platform's POST Calls parameters (checked) is set up. */
export function outboundSetup(
  _rt: Runtime<Call>,
  record: CallRecord,
  params: CreateCallParams,
  checked: { timeout: number; events: Set<CallEventName>; headers: SipHeaders | undefined },
): CallSetup {
  return {
    record,
    outbound: true,
    ringTimeoutMs: checked.timeout * 1000,
    headers: checked.headers,
    first: {
      url: params.Url,
      method: params.Method ?? 'POST',
      kind: 'rcml',
      fallback: params.FallbackUrl
        ? { url: params.FallbackUrl, method: params.FallbackMethod ?? 'POST' }
        : undefined,
    },
    callbacks: params.StatusCallback
      ? { url: params.StatusCallback, method: params.StatusCallbackMethod ?? 'POST', events: checked.events }
      : undefined,
  };
}

/** How an inbound call from `from` to a number is set up (no first document when it is not routed). */
export function inboundSetup(
  rt: Runtime<Call>,
  record: CallRecord,
  from: string,
  number: NumberConfig | undefined,
  options: IncomingCallOptions,
  line?: CallLine,
): CallSetup {
  return {
    record,
    line: line ?? new SimulatedLine(rt, rt.party(from, record)),
    outbound: false,
    ringTimeoutMs: 0,
    headers: options.headers,
    first: number && {
      url: number.voiceUrl,
      method: number.voiceMethod ?? 'POST',
      kind: 'rcml',
      fallback: number.voiceFallbackUrl
        ? { url: number.voiceFallbackUrl, method: number.voiceFallbackMethod ?? 'POST' }
        : undefined,
    },
    callbacks: number?.statusCallback
      ? {
          url: number.statusCallback,
          method: number.statusCallbackMethod ?? 'POST',
          events: new Set(number.statusCallbackEvent ?? ['completed']),
        }
      : undefined,
  };
}
