import type { Call } from './call.js';
import type { ScriptStart } from './call-machine.js';
import { EngineError } from './errors.js';
import { releaseLeg } from './legs.js';
import { setMuted } from './media.js';
import { type ModifyCallInput, type ModifyCallParams, modifyCallParamsSchema } from './modify-call-schema.js';
import type { CallRecord } from './records.js';
import type { Runtime } from './runtime.js';

/** Validates modification parameters; throws `invalid-params` naming the first bad field. */
export function parseModifyParams(input: ModifyCallInput): ModifyCallParams {
  const parsed = modifyCallParamsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new EngineError('invalid-params', `${field}${issue.message}`);
}

/**
 * Modifies the live call `callSid` of the engine whose runtime is `rt` (a `modify` event, then
 * {@link applyModification}); returns its record. Throws `invalid-params`, `unknown-call`, or
 * `not-modifiable` when the call has ended.
 */
export function modifyLiveCall(
  rt: Runtime<Call>,
  callSid: string,
  params: ModifyCallInput,
): Readonly<CallRecord> {
  const parsed = parseModifyParams(params);
  const call = rt.live.get(callSid);
  if (!call) {
    const record = rt.records.get(callSid);
    if (!record) throw new EngineError('unknown-call', `no call with sid '${callSid}'`);
    throw new EngineError(
      'not-modifiable',
      `call '${callSid}' has ended (${record.status}); only live calls can be modified`,
    );
  }
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) shown[k] = String(v);
  rt.listener?.({ type: 'modify', at: rt.clock.now(), callSid, params: shown });
  applyModification(call, parsed);
  return call.record;
}

/**
 * Applies a live modification to a call. `Status=completed` hangs up in any state,
 * `Status=canceled` only a queued or ringing call (no effect otherwise); `Url` replaces the
 * running document at once (waits interrupted with reason `modified`), with the bridged leg
 * treated per `ChildCallMode`: `Hangup` (default) hangs it up, `Move` runs the same URL on it,
 * `StayConnected` keeps the bridge and runs the document beside the current one.
 */
export function applyModification(call: Call, p: ModifyCallParams): void {
  if (p.StatusCallback) {
    call.callbacks = {
      url: p.StatusCallback,
      method: p.StatusCallbackMethod ?? 'POST',
      events: new Set(['completed']),
    };
  }
  if (p.Mute !== undefined) setMuted(call, p.Mute);
  const status = call.record.status;
  if (p.Status === 'completed') {
    call.end(status === 'in-progress' ? 'completed' : 'canceled', 'api');
    return;
  }
  if (p.Status === 'canceled') {
    if (status === 'queued' || status === 'ringing') call.end('canceled', 'api');
    return;
  }
  if (!p.Url) return;
  const start: ScriptStart = {
    url: p.Url,
    method: p.Method ?? 'POST',
    kind: 'modify',
    fallback: p.FallbackUrl ? { url: p.FallbackUrl, method: p.FallbackMethod ?? 'POST' } : undefined,
  };
  const mode = p.ChildCallMode ?? (p.MoveConnectedCallLeg ? 'Move' : 'Hangup');
  const bridge = call.bridge;
  if (mode === 'StayConnected' && (bridge || call.conferenceSid)) {
    // Stays bridged (or in its conference) and runs the new document beside the current one.
    call.runParallel(start);
    return;
  }
  if (!bridge) {
    // A leg still ringing (or being screened) for a Dial leaves it: it is never bridged.
    releaseLeg(call);
    call.run(start, 'modified');
    return;
  }
  if (call === bridge.b) {
    // The callee leaves the bridge; the dialer's Dial ends as completed and goes on.
    bridge.release = 'keep';
    bridge.end('modified');
    call.run(start, 'modified');
    return;
  }
  const child = bridge.b;
  if (mode === 'Move') bridge.release = 'keep';
  call.run(start, 'modified');
  if (mode === 'Move') child.run(start, 'modified');
}
