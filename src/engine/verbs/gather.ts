import type { Gather } from '../../rcml/model.js';
import { gatherDefaults } from '../../rcml/verbs/gather.js';
import { Interrupted } from '../errors.js';
import { API_VERSION, type GatherRecord } from '../records.js';
import { speakingSeconds } from '../settings.js';
import { organizationSid } from '../sids.js';
import { verbDetails } from '../verb-details.js';
import { actionOutcome } from './action.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

const DTMF_KEY = /[0-9*#]/;

interface GatherResult {
  digits: string;
  speech?: string;
  /** Why collection stopped without a result: `timeout` or `hangup`. */
  failure?: string;
}

/**
 * Collects DTMF and/or speech. Prompts play first and stop at the first input; collection ends
 * on `finishOnKey` (not included), `numDigits`, speech, or `timeout` seconds without input.
 * With a result (or `actionOnEmptyResult`) and an action, the action's document replaces this
 * one; otherwise the next verb runs. Every Gather writes one DTMF or Speech record.
 */
export async function gatherVerb(ctx: VerbContext, verb: Gather): Promise<VerbOutcome> {
  const result: GatherResult = { digits: '' };
  ctx.listen(true);
  try {
    if (!(await playPrompts(ctx, verb))) return HANGUP;
    await collect(ctx, verb, result);
  } catch (err) {
    if (err instanceof Interrupted && err.reason === 'ended') {
      result.failure = 'hangup';
      writeRecord(ctx, verb, result);
    }
    throw err;
  } finally {
    ctx.unlisten();
  }
  writeRecord(ctx, verb, result);
  const empty = !result.digits && result.speech === undefined;
  const actionOnEmpty = verb.actionOnEmptyResult ?? gatherDefaults.actionOnEmptyResult;
  if (!verb.action || (empty && !actionOnEmpty)) return NEXT;
  // Both results always, the unused one empty, as the platform sends them.
  const params: Record<string, string> = { Digits: result.digits, SpeechResult: result.speech ?? '' };
  if (result.speech !== undefined) params.Confidence = String(ctx.settings.speechConfidence);
  return actionOutcome(ctx, 'Gather', verb.action, verb.method ?? gatherDefaults.method, ctx.params(params));
}

const HANGUP: VerbOutcome = { kind: 'hangup' };

/**
 * Plays the nested prompts in order; each shows as a verb nested in Gather at its start time.
 * False when a Play's URL is not a URI: error 13325 and the call stops, as in the platform's
 * BaseVoiceInterpreter.ProcessingGatherChildren.
 */
async function playPrompts(ctx: VerbContext, verb: Gather): Promise<boolean> {
  const listener = ctx.services.listener;
  try {
    for (const prompt of verb.prompts) {
      if (prompt.verb === 'Play' && prompt.url && !ctx.resolveUrl(prompt.url)) {
        ctx.notify('13325', 0, `Gather: '${prompt.url}' is an invalid Play URI`);
        return false;
      }
      listener?.({
        type: 'verb',
        at: ctx.now(),
        callSid: ctx.call.sid,
        verb: prompt.verb,
        documentUrl: ctx.documentUrl,
        parent: 'Gather',
        details: verbDetails(prompt),
      });
      await ctx.run(prompt);
    }
  } catch (err) {
    if (!(err instanceof Interrupted && err.reason === 'input')) throw err;
  }
  return true;
}

async function collect(ctx: VerbContext, verb: Gather, result: GatherResult): Promise<void> {
  const timeout = verb.timeout ?? gatherDefaults.timeout;
  // An empty finishOnKey means `#`, as on the platform (it cannot disable the key).
  const finishOnKey = verb.finishOnKey || gatherDefaults.finishOnKey;
  const input = verb.input ?? gatherDefaults.input;
  const wantsDtmf = input.includes('dtmf');
  const wantsSpeech = input.includes('speech');
  for (;;) {
    const next = await ctx.nextInput(timeout);
    if (!next) break;
    if (next.kind === 'speech') {
      if (!wantsSpeech) {
        ctx.discardInput(next, 'speech not gathered');
        continue;
      }
      sendPartialResults(ctx, verb, next.text);
      result.speech = next.text;
      return;
    }
    if (!wantsDtmf) {
      ctx.discardInput(next, 'keys not gathered');
      continue;
    }
    // `i` counts code points, as the keys are iterated.
    let i = -1;
    for (const key of next.keys) {
      i++;
      if (!DTMF_KEY.test(key)) continue;
      const rest = next.keys.slice(i + 1);
      if (finishOnKey && key === finishOnKey) return discardKeys(ctx, rest, 'after finishOnKey');
      result.digits += key;
      if (verb.numDigits && result.digits.length >= verb.numDigits)
        return discardKeys(ctx, rest, 'past numDigits');
    }
  }
  if (!result.digits) result.failure = 'timeout';
}

function discardKeys(ctx: VerbContext, keys: string, reason: string): void {
  if (keys) ctx.discardInput({ kind: 'dtmf', keys }, reason);
}

/**
 * Sends `partialResultCallback` the phrase as recognition grows, one request per word with the
 * words so far in `UnstableSpeechResult` (the platform's BaseVoiceInterpreter.PartialGathering),
 * all before the final result.
 */
function sendPartialResults(ctx: VerbContext, verb: Gather, text: string): void {
  if (!verb.partialResultCallback) return;
  const url = ctx.resolveUrl(verb.partialResultCallback);
  if (!url) {
    ctx.notify('11100', 1, `Gather: invalid partialResultCallback URL '${verb.partialResultCallback}'`);
    return;
  }
  const method = verb.partialResultCallbackMethod ?? gatherDefaults.partialResultCallbackMethod;
  const words = text.split(/\s+/).filter((w) => w !== '');
  for (let i = 1; i <= words.length; i++) {
    ctx.send(
      'partial-result',
      url,
      method,
      ctx.params({ UnstableSpeechResult: words.slice(0, i).join(' ') }),
    );
  }
}

function writeRecord(ctx: VerbContext, verb: Gather, result: GatherResult): void {
  const timeout = verb.timeout ?? gatherDefaults.timeout;
  const input = verb.input ?? gatherDefaults.input;
  const ok = result.failure === undefined || result.digits !== '';
  const status = ok ? 'completed' : 'failed';
  const reason = ok ? '' : (result.failure ?? '');
  const actionOnEmptyResult = verb.actionOnEmptyResult ?? gatherDefaults.actionOnEmptyResult;
  const sid = ctx.newSid('GA');
  const accountSid = ctx.call.accountSid;
  const orgSid = organizationSid(accountSid);
  const callSid = ctx.call.sid;
  const dateCreated = ctx.now();
  // Literals rather than a spread of the shared fields: V8 copies a spread object of this size
  // through its slow path, a few microseconds per Gather.
  let record: GatherRecord;
  if (result.speech !== undefined || !input.includes('dtmf')) {
    const text = result.speech ?? '';
    record = {
      sid,
      accountSid,
      orgSid,
      callSid,
      dateCreated,
      preTimeout: timeout,
      postTimeout: timeout,
      actionOnEmptyResult,
      status,
      reason,
      apiVersion: API_VERSION,
      kind: 'speech',
      provider: ctx.settings.speechProvider,
      language: verb.language ?? gatherDefaults.language,
      hints: verb.hints ?? '',
      duration: Math.ceil(speakingSeconds(text, ctx.settings)),
      speechResult: text,
    };
  } else {
    record = {
      sid,
      accountSid,
      orgSid,
      callSid,
      dateCreated,
      preTimeout: timeout,
      postTimeout: timeout,
      actionOnEmptyResult,
      status,
      reason,
      apiVersion: API_VERSION,
      kind: 'dtmf',
      digitsCount: result.digits.length,
      digits: result.digits,
    };
  }
  ctx.gather(record);
}
