import type { Record as RecordVerb } from '../../rcml/model.js';
import { recordDefaults } from '../../rcml/verbs/record.js';
import { API_VERSION, type RecordingRecord } from '../records.js';
import { actionOutcome } from './action.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * Records the caller on the call's line after an optional beep. It stops on a `finishOnKey`
 * key, at `maxLength`, after `timeout` seconds of silence, or on hang-up. Writes a Recording
 * record with the line's WAV file; the action gets `RecordingUrl` and `PublicRecordingUrl`
 * (both the recording's HTTP URL), `RecordingSid`, `RecordingDuration` and `Digits` (the key,
 * or `hangup`, also during the beep).
 */
export async function recordVerb(ctx: VerbContext, verb: RecordVerb): Promise<VerbOutcome> {
  // An empty finishOnKey means `#` (the platform's CreatingRecording); absent, any key; -1 none.
  const finishOnKey = verb.finishOnKey === '' ? '#' : (verb.finishOnKey ?? recordDefaults.finishOnKey);
  const { recording, interrupted } = await ctx.record({
    maxLength: verb.maxLength ?? recordDefaults.maxLength,
    timeout: verb.timeout ?? recordDefaults.timeout,
    finishOnKey: finishOnKey === '-1' ? '' : finishOnKey,
    playBeep: verb.playBeep ?? recordDefaults.playBeep,
    beepSeconds: ctx.settings.beepSeconds,
  });
  // A hang-up during the beep still reaches the action.
  const digits = recording.key ?? (interrupted?.reason === 'ended' ? 'hangup' : undefined);
  const duration = recording.duration;
  const record: RecordingRecord = {
    sid: ctx.newSid('RE'),
    accountSid: ctx.call.accountSid,
    callSid: ctx.call.sid,
    duration,
    apiVersion: API_VERSION,
    dateCreated: ctx.now(),
    dateUpdated: ctx.now(),
  };
  ctx.recording(record, recording.wav);
  const url = ctx.settings.recordingUrl(record.accountSid, record.sid);
  const params: Record<string, string> = {
    RecordingUrl: url,
    PublicRecordingUrl: url,
    RecordingSid: record.sid,
    RecordingDuration: String(duration),
  };
  if (digits !== undefined) params.Digits = digits;
  const method = verb.method ?? recordDefaults.method;
  if (interrupted) {
    // The call is gone but the application still learns about its recording.
    const action = verb.action ? ctx.resolveUrl(verb.action) : undefined;
    if (action && interrupted.reason === 'ended') ctx.send('action', action, method, ctx.params(params));
    throw interrupted;
  }
  if (!verb.action) return NEXT;
  return actionOutcome(ctx, 'Record', verb.action, method, ctx.params(params));
}
