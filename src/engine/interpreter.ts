import type { HttpMethod, Say, Verb } from '../rcml/model.js';
import { sayDefaults } from '../rcml/verbs/say.js';
import type { Call } from './call.js';
import type { ScriptStart } from './call-machine.js';
import { type LoadedDocument, loadDocument } from './documents.js';
import { Interrupted } from './errors.js';
import type { CallLine, MediaSource } from './ports/call-line.js';
import type { CallScript } from './runtime.js';
import { ScriptContext } from './script-context.js';
import type { RequestKind } from './types.js';
import { verbDetails } from './verb-details.js';
import { verbHandlers } from './verbs/index.js';
import { pauseSilence, pauseVerb } from './verbs/pause.js';
import { NEXT, type VerbOutcome } from './verbs/types.js';
import { unknownVerb } from './verbs/unknown.js';

/**
 * Verbs that run on a ringing inbound call without answering it: every other verb answers
 * first (Hangup and Redirect too, as on the platform). Unknown elements are no verbs.
 */
const NON_ANSWERING = new Set<Verb['verb']>(['Pause', 'Reject', 'Unknown']);

type FetchOutcome = Extract<VerbOutcome, { kind: 'fetch' }>;

const NO_VERBS: readonly Verb[] = [];

/** After one microtask, as an `await` of a value that is already there resumes. */
const settled = Promise.resolve();

/**
 * A call's script: its verb context, and the run of its documents: fetch a document, execute
 * its verbs, follow redirects and actions, hang up at the end. The first document alone may
 * fall back to its fallback URL. The run ends when the call ends or the script is stopped
 * (another document replaced it).
 *
 * Written as steps chained on promises rather than as async functions: a call parked in a long
 * verb then holds one promise reaction, not two suspended frames (a few hundred bytes each).
 * Each step resumes after as many microtasks as the nested async functions it replaces did
 * (one per `await`, one more where a document's verbs returned or threw to their caller), so
 * that calls interleave on the clock exactly as they did.
 */
class Script extends ScriptContext implements CallScript {
  /** The redirect or action being followed; null while on the first document. */
  private redirect: FetchOutcome | null = null;
  private verbs: readonly Verb[] = NO_VERBS;
  /** The verb running; -1 until the first document is loaded (its fallback may be tried). */
  private index = -1;
  /** What the document's verbs asked for, taken a microtask later by `next`. */
  private outcome: VerbOutcome = NEXT;
  // The steps as promise callbacks, made once per script rather than a pair per step: those
  // pairs made about a fifth of what a short call allocates. Assigned in the constructor, not
  // as field initialisers, which a build that keeps function names renames one by one.
  private readonly onLoaded: (doc: LoadedDocument) => void;
  private readonly onFailed: (err: unknown) => void;
  private readonly onVerbDone: (outcome: VerbOutcome) => void;
  private readonly onVerbFailed: (err: unknown) => void;
  private readonly onVerbsDone: () => void;

  constructor(
    owner: Call,
    private readonly start: ScriptStart,
  ) {
    super(owner, start.url);
    this.screening = start.screening === true;
    this.onLoaded = (doc) => this.loaded(doc);
    this.onFailed = (err) => this.failed(err);
    this.onVerbDone = (outcome) => this.verbDone(outcome);
    this.onVerbFailed = (err) => this.verbsFailed(err);
    this.onVerbsDone = () => this.next(this.outcome);
  }

  begin(): void {
    this.fetch(this.start.url, this.start.method, this.start.kind);
  }

  /** Fetches the next document (the fallback too); `loaded` takes it. */
  private fetch(url: string, method: HttpMethod, kind: RequestKind): void {
    let doc: LoadedDocument | Promise<LoadedDocument>;
    try {
      const extra = this.redirect === null ? this.start.params : this.redirect.params;
      doc = loadDocument(this.owner, url, method, kind, extra, this);
    } catch (err) {
      this.failed(err);
      return;
    }
    Promise.resolve(doc).then(this.onLoaded, this.onFailed);
  }

  private loaded(doc: LoadedDocument): void {
    try {
      if (this.aborted) return;
      const call = this.owner;
      const fallback = this.index < 0 ? this.start.fallback : undefined;
      this.index = 0;
      if (!doc.ok && fallback) {
        call.rt.notify(call.record.sid, doc.code, doc.log, doc.message, doc.url);
        this.fetch(fallback.url, fallback.method, 'fallback');
        return;
      }
      if (!doc.ok) {
        // A document that cannot be had fails the call, first or later one alike
        // (VoiceInterpreter.onDownloaderResponse: CallFail unless the answer is a 200).
        call.rt.notify(call.record.sid, doc.code, doc.log, doc.message, doc.url);
        call.end('failed');
        return;
      }
      this.documentUrl = doc.url;
      if (call.line?.prepare) prepareSpeech(call.line, doc.verbs);
      this.verbs = doc.verbs;
    } catch (err) {
      this.failed(err);
      return;
    }
    this.runVerb();
  }

  /** Runs the verb at `index`; the document's outcome once its verbs are done. */
  private runVerb(): void {
    const call = this.owner;
    let outcome: VerbOutcome | Promise<VerbOutcome>;
    try {
      if (this.index >= this.verbs.length) {
        this.verbsDone(NEXT);
        return;
      }
      const verb = this.verbs[this.index];
      if (this.aborted || call.ended) throw Interrupted.of('ended');
      if (call.record.status === 'ringing' && !NON_ANSWERING.has(verb.verb)) call.answer();
      const listener = call.rt.listener;
      if (listener) {
        const name = verb.verb === 'Unknown' ? verb.name : verb.verb;
        listener({
          type: 'verb',
          at: this.now(),
          callSid: call.record.sid,
          verb: name,
          documentUrl: this.documentUrl,
          details: verbDetails(verb),
        });
      }
      const handler = verbHandlers[verb.verb] ?? unknownVerb;
      if (handler === pauseVerb && verb.verb === 'Pause') {
        // The microtask of the Pause's own `then(next)` is taken here, either way it ends.
        pauseSilence(this, verb).then(
          () => settled.then(() => this.verbDone(NEXT)),
          (err) => settled.then(() => this.verbsFailed(err)),
        );
        return;
      }
      outcome = handler(this, verb);
    } catch (err) {
      this.verbsFailed(err);
      return;
    }
    Promise.resolve(outcome).then(this.onVerbDone, this.onVerbFailed);
  }

  private verbDone(outcome: VerbOutcome): void {
    if (outcome !== NEXT && outcome.kind !== 'next') {
      this.verbsDone(outcome);
      return;
    }
    this.index++;
    this.runVerb();
  }

  /** The document's verbs are done: what they ask for, a microtask later. */
  private verbsDone(outcome: VerbOutcome): void {
    this.outcome = outcome;
    settled.then(this.onVerbsDone);
  }

  private verbsFailed(err: unknown): void {
    settled.then(() => this.failed(err));
  }

  private next(outcome: VerbOutcome): void {
    try {
      if (this.aborted) return;
      if (outcome.kind === 'fetch') {
        this.redirect = outcome;
        this.fetch(outcome.url, outcome.method, outcome.requestKind);
        return;
      }
      const start = this.start;
      if (outcome.kind === 'next' && start.onEnd) {
        start.onEnd();
        return;
      }
      if (outcome.kind === 'hangup') start.onHangup?.();
      if (outcome.kind === 'end') this.owner.end(outcome.status, 'application', outcome.reason);
      else this.owner.end('completed');
    } catch (err) {
      this.failed(err);
    }
  }

  /** An error ends the call, unless the script was stopped (then it is why the wait ended). */
  private failed(err: unknown): void {
    if (err instanceof Interrupted || this.aborted) return;
    const call = this.owner;
    const message = err instanceof Error ? err.message : String(err);
    call.rt.notify(call.record.sid, 'engine.internal', 0, `interpreter error: ${message}`, this.documentUrl);
    call.end(call.record.status === 'in-progress' ? 'completed' : 'failed');
  }
}

/** Prepares the script that runs `start` on `call` (the engine hands this to its calls). */
export function prepareScript(call: Call, start: ScriptStart): CallScript {
  return new Script(call, start);
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
