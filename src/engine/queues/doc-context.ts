import type { HttpMethod, Verb } from '../../rcml/model.js';
import { Interrupted } from '../errors.js';
import type { FetchResult } from '../fetcher.js';
import type { LineRecording, MediaSource, PlayFailed, RecordOptions } from '../ports/call-line.js';
import type { GatherRecord, MessageRecord, RecordingRecord } from '../records.js';
import type { EngineSettings } from '../settings.js';
import type { PartyInput, RequestKind } from '../types.js';
import type { ScriptSignal, VerbContext, VerbDispatch, VerbOutcome, VerbServices } from '../verbs/types.js';
import { writeWav } from '../wav.js';

/**
 * The context of verbs in a queue document: the call's own context, but relative URLs and
 * notifications refer to the queue document, and every wait fails at once (`dequeued`) when
 * `stopped()` says the call's wait is over, even if it starts after the interruption.
 */
export class QueueDocContext implements VerbContext {
  documentUrl: string;

  constructor(
    private readonly base: VerbContext,
    documentUrl: string,
    private readonly stopped: () => boolean,
  ) {
    this.documentUrl = documentUrl;
  }

  get call() {
    return this.base.call;
  }
  get services(): VerbServices {
    return this.base.services;
  }
  get signal(): ScriptSignal {
    return this.base.signal;
  }
  get settings(): EngineSettings {
    return this.base.settings;
  }
  now(): number {
    return this.base.now();
  }
  wait(seconds: number): Promise<void> {
    if (this.stopped()) return Promise.reject(Interrupted.of('dequeued'));
    return this.base.wait(seconds);
  }
  play(source: MediaSource): Promise<PlayFailed | undefined> {
    if (this.stopped()) return Promise.reject(Interrupted.of('dequeued'));
    return this.base.play(source);
  }
  record(options: RecordOptions): Promise<{ recording: LineRecording; interrupted?: Interrupted }> {
    if (this.stopped()) {
      const recording: LineRecording = { wav: writeWav(0), duration: 0, started: false, endedBy: 'stopped' };
      return Promise.resolve({ recording, interrupted: Interrupted.of('dequeued') });
    }
    return this.base.record(options);
  }
  audio(url: string): Promise<MediaSource | null> {
    return this.base.audio(url);
  }
  listen(interrupt: boolean): void {
    this.base.listen(interrupt);
  }
  nextInput(seconds: number): Promise<PartyInput | null> {
    if (this.stopped()) return Promise.reject(Interrupted.of('dequeued'));
    return this.base.nextInput(seconds);
  }
  unlisten(): void {
    this.base.unlisten();
  }
  discardInput(input: PartyInput, reason: string): void {
    this.base.discardInput(input, reason);
  }
  resolveUrl(url: string): string | undefined {
    try {
      return new URL(url.trim(), this.documentUrl).toString();
    } catch {
      return undefined;
    }
  }
  newSid(prefix: string): string {
    return this.base.newSid(prefix);
  }
  notify(code: string, log: 0 | 1, message: string, url?: string): void {
    this.base.notify(code, log, message, url ?? this.documentUrl);
  }
  gather(record: GatherRecord): void {
    this.base.gather(record);
  }
  recording(record: RecordingRecord, wav: Uint8Array): void {
    this.base.recording(record, wav);
  }
  message(record: MessageRecord): void {
    this.base.message(record);
  }
  fetchMedia(url: string): Promise<FetchResult> {
    return this.base.fetchMedia(url);
  }
  mediaSeconds(url: string): Promise<number | null> {
    return this.base.mediaSeconds(url);
  }
  send(kind: RequestKind, url: string, method: HttpMethod, params: Record<string, string>): void {
    this.base.send(kind, url, method, params);
  }
  params(extra?: Record<string, string>): Record<string, string> {
    return this.base.params(extra);
  }
  get dispatch(): VerbDispatch {
    return this.base.dispatch;
  }
  /** Nested verbs (Gather prompts) run in this context too. */
  run(verb: Verb): Promise<VerbOutcome> {
    return this.base.dispatch(this, verb);
  }
  isRinging(): boolean {
    return this.base.isRinging();
  }
}
