import type { Say, Verb } from '../rcml/model.js';
import { sayDefaults } from '../rcml/verbs/say.js';
import type { Call } from './call.js';
import type { ScriptStart } from './call-machine.js';
import { loadDocument } from './documents.js';
import { Interrupted } from './errors.js';
import type { CallLine, MediaSource } from './ports/call-line.js';
import type { CallScript } from './runtime.js';
import { ScriptContext } from './script-context.js';
import { verbDetails } from './verb-details.js';
import { verbHandlers } from './verbs/index.js';
import { NEXT, type VerbOutcome } from './verbs/types.js';
import { unknownVerb } from './verbs/unknown.js';

/**
 * Verbs that run on a ringing inbound call without answering it: every other verb answers
 * first (Hangup and Redirect too, as on the platform). Unknown elements are no verbs.
 */
const NON_ANSWERING = new Set<Verb['verb']>(['Pause', 'Reject', 'Unknown']);

/** A call's script: its verb context, and the document it starts with. */
class Script extends ScriptContext implements CallScript {
  constructor(
    owner: Call,
    private readonly start: ScriptStart,
  ) {
    super(owner, start.url);
    this.screening = start.screening === true;
  }

  begin(): void {
    void runScript(this.owner, this.start, this);
  }
}

/** Prepares the script that runs `start` on `call` (the engine hands this to its calls). */
export function prepareScript(call: Call, start: ScriptStart): CallScript {
  return new Script(call, start);
}

/**
 * Runs a call's script: fetch a document, execute its verbs, follow redirects and actions,
 * hang up at the end. The first document alone may fall back to its fallback URL. Returns
 * when the call ends or the script is stopped (another document replaced it).
 */
export async function runScript(call: Call, start: ScriptStart, ctx: ScriptContext): Promise<void> {
  const signal = ctx.signal;
  try {
    let url = start.url;
    let method = start.method;
    let kind = start.kind;
    let params = start.params;
    let fallback = start.fallback;
    for (;;) {
      let doc = await loadDocument(call, url, method, kind, params, ctx);
      if (signal.aborted) return;
      if (!doc.ok && fallback) {
        call.rt.notify(call.record.sid, doc.code, doc.log, doc.message, doc.url);
        doc = await loadDocument(call, fallback.url, fallback.method, 'fallback', params, ctx);
        if (signal.aborted) return;
      }
      fallback = undefined;
      if (!doc.ok) {
        // A document that cannot be had fails the call, first or later one alike
        // (VoiceInterpreter.onDownloaderResponse: CallFail unless the answer is a 200).
        call.rt.notify(call.record.sid, doc.code, doc.log, doc.message, doc.url);
        call.end('failed');
        return;
      }
      ctx.documentUrl = doc.url;
      if (call.line?.prepare) prepareSpeech(call.line, doc.verbs);
      const outcome = await runVerbs(call, ctx, doc.verbs);
      if (signal.aborted) return;
      if (outcome.kind === 'fetch') {
        ({ url, method, params } = outcome);
        kind = outcome.requestKind;
        continue;
      }
      if (outcome.kind === 'next' && start.onEnd) {
        start.onEnd();
        return;
      }
      if (outcome.kind === 'hangup') start.onHangup?.();
      if (outcome.kind === 'end') call.end(outcome.status, 'application', outcome.reason);
      else call.end('completed');
      return;
    }
  } catch (err) {
    if (err instanceof Interrupted || signal.aborted) return;
    const message = err instanceof Error ? err.message : String(err);
    call.rt.notify(call.record.sid, 'engine.internal', 0, `interpreter error: ${message}`, ctx.documentUrl);
    call.end(call.record.status === 'in-progress' ? 'completed' : 'failed');
  }
}

async function runVerbs(call: Call, ctx: ScriptContext, verbs: readonly Verb[]): Promise<VerbOutcome> {
  const listener = call.rt.listener;
  // An index, not an iterator: the loop's state stays alive while a verb waits (a long Pause).
  for (let i = 0; i < verbs.length; i++) {
    const verb = verbs[i];
    if (ctx.signal.aborted || call.ended) throw Interrupted.of('ended');
    if (call.record.status === 'ringing' && !NON_ANSWERING.has(verb.verb)) call.answer();
    if (listener) {
      const name = verb.verb === 'Unknown' ? verb.name : verb.verb;
      listener({
        type: 'verb',
        at: ctx.now(),
        callSid: call.record.sid,
        verb: name,
        documentUrl: ctx.documentUrl,
        details: verbDetails(verb),
      });
    }
    const handler = verbHandlers[verb.verb] ?? unknownVerb;
    const outcome = await handler(ctx, verb);
    if (outcome !== NEXT && outcome.kind !== 'next') return outcome;
  }
  return NEXT;
}

/** Hands a line that synthesises speech the Say texts of a document (prompts included), ahead. */
function prepareSpeech(line: CallLine, verbs: readonly Verb[]): void {
  const sources: MediaSource[] = [];
  const add = (say: Say): void => {
    if (!say.text) return;
    const voice = say.voice ?? sayDefaults.voice;
    sources.push({ kind: 'speech', text: say.text, voice, language: say.language ?? sayDefaults.language });
  };
  for (const verb of verbs) {
    if (verb.verb === 'Say') add(verb);
    else if (verb.verb === 'Gather') for (const p of verb.prompts) if (p.verb === 'Say') add(p);
  }
  if (sources.length > 0) line.prepare?.(sources);
}
