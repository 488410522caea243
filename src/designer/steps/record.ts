/** record -> `<Record>`; its action handler stores the recording's `core_*` results. */
import type { Record as RecordVerb } from '../../rcml/model.js';
import { link, type RenderContext } from '../context.js';
import type { RecordStep } from '../schema.js';

/** Request parameters the record action handler stores as `core_*`. */
export const RECORD_RESULT_PARAMETERS = ['RecordingDuration', 'Digits'] as const;

/** record -> `<Record action(only with next) method timeout finishOnKey maxLength ...>`. */
export function renderRecord(step: RecordStep, module: string, ctx: RenderContext): RecordVerb {
  const record: RecordVerb = { verb: 'Record' };
  if (step.next) {
    record.action = link(ctx, `${module}.${step.name}.actionhandler`);
    if (step.method) record.method = step.method;
  }
  if (step.timeout !== undefined) record.timeout = step.timeout;
  if (step.finishOnKey) record.finishOnKey = step.finishOnKey;
  if (step.maxLength !== undefined) record.maxLength = step.maxLength;
  if (step.transcribe !== undefined) record.transcribe = step.transcribe;
  // Written as saved, without `$` expansion.
  if (step.transcribeCallback) record.transcribeCallback = step.transcribeCallback;
  if (step.playBeep !== undefined) record.playBeep = step.playBeep;
  // `media` needs the application's video option.
  if (step.media && ctx.app.videoSupport) record.media = step.media;
  return record;
}
