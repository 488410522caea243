import type { Record as RecordVerb } from '../../rcml/model.js';
import { recordDefaults } from '../../rcml/verbs/record.js';
import { Interrupted } from '../errors.js';
import { API_VERSION, type RecordingRecord } from '../records.js';
import { speakingSeconds } from '../settings.js';
import { writeWav } from '../wav.js';
import { actionOutcome } from './action.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * Records the caller after an optional beep. It stops on a `finishOnKey` key, at `maxLength`,
 * after `timeout` seconds of silence (the party is silent except while it speaks a phrase), or
 * on hang-up. Writes a Recording record with a WAV file of the recorded length; the action gets
 * `RecordingUrl` and `PublicRecordingUrl` (both the recording's HTTP URL), `RecordingSid`,
 * `RecordingDuration` and `Digits` (the key, or `hangup`, also during the beep).
 */
export async function recordVerb(ctx: VerbContext, verb: RecordVerb): Promise<VerbOutcome> {
  const timeout = verb.timeout ?? recordDefaults.timeout;
  const maxLength = verb.maxLength ?? recordDefaults.maxLength;
  // An empty finishOnKey means `#` (the platform's CreatingRecording); absent, any key.
  const finishOnKey = verb.finishOnKey === '' ? '#' : (verb.finishOnKey ?? recordDefaults.finishOnKey);
  // Recording starts after the beep; a hang-up during the beep still reaches the action.
  let start: number | undefined;
  let digits: string | undefined;
  let interrupted: Interrupted | undefined;
  try {
    if (verb.playBeep ?? recordDefaults.playBeep) await ctx.wait(ctx.settings.beepSeconds);
    start = ctx.now();
    ctx.listen(false);
    const hardEnd = start + maxLength * 1000;
    let silenceEnd = start + timeout * 1000;
    for (;;) {
      const remaining = Math.min(silenceEnd, hardEnd) - ctx.now();
      if (remaining <= 0) break;
      const input = await ctx.nextInput(remaining / 1000);
      if (!input) break;
      if (input.kind === 'speech') {
        silenceEnd = ctx.now() + (speakingSeconds(input.text, ctx.settings) + timeout) * 1000;
        continue;
      }
      const key = finishOnKey === '-1' ? undefined : [...input.keys].find((k) => finishOnKey.includes(k));
      if (key) {
        digits = key;
        break;
      }
    }
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err;
    interrupted = err;
    if (err.reason === 'ended') digits = 'hangup';
  } finally {
    ctx.unlisten();
  }
  const duration = start === undefined ? 0 : Math.round(ctx.now() - start) / 1000;
  const record: RecordingRecord = {
    sid: ctx.newSid('RE'),
    accountSid: ctx.call.accountSid,
    callSid: ctx.call.sid,
    duration,
    apiVersion: API_VERSION,
    dateCreated: ctx.now(),
    dateUpdated: ctx.now(),
  };
  ctx.recording(record, writeWav(duration));
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
