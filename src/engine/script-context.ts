import type { HttpMethod, Verb } from '../rcml/model.js';
import type { Call } from './call.js';
import { CallServices } from './call-services.js';
import type { Interrupted, InterruptReason } from './errors.js';
import type { FetchResult } from './fetcher.js';
import { mediaLength } from './media-file.js';
import type { LineRecording, MediaSource, PlayFailed, RecordOptions } from './ports/call-line.js';
import type { GatherRecord, MessageRecord, RecordingRecord } from './records.js';
import type { EngineSettings } from './settings.js';
import type { PartyInput, RequestKind } from './types.js';
import { dispatchVerb, verbHandlers } from './verbs/index.js';
import type { ScriptSignal, VerbContext, VerbDispatch, VerbOutcome, VerbServices } from './verbs/types.js';
import { unknownVerb } from './verbs/unknown.js';

/** The `VerbContext` of one script run: a thin view over its call and the engine runtime. */
export class ScriptContext implements VerbContext, ScriptSignal {
  private stopped = false;
  private stopReason: InterruptReason | undefined;
  private cleanups: Array<() => void> | null = null;
  private bound: CallServices | null = null;
  /** Requests carry the screening parameter set (a Dial noun's `url` document on the callee). */
  screening = false;

  constructor(
    /** The live call this script runs on. */
    readonly owner: Call,
    public documentUrl: string,
  ) {}

  /** The call's services for its verbs, made on first use (most scripts never connect calls). */
  get services(): VerbServices {
    this.bound ??= new CallServices(this.owner);
    return this.bound;
  }

  get signal(): ScriptSignal {
    return this;
  }

  get aborted(): boolean {
    return this.stopped;
  }

  onAbort(cleanup: () => void): void {
    if (this.stopped) cleanup();
    else {
      this.cleanups ??= [];
      this.cleanups.push(cleanup);
    }
  }

  /** Why the script stopped (`ended`, `replaced`, `modified`), once it has. */
  get reason(): InterruptReason | undefined {
    return this.stopReason;
  }

  /** Stops this script: its pending wait is interrupted and its cleanups run. */
  stop(reason: InterruptReason = 'replaced'): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopReason = this.owner.ended ? 'ended' : reason;
    this.owner.interrupt(this.stopReason);
    const cleanups = this.cleanups;
    this.cleanups = null;
    if (cleanups) for (const fn of cleanups) fn();
  }

  get call() {
    return this.owner.record;
  }

  get settings(): EngineSettings {
    return this.owner.rt.settings;
  }

  now(): number {
    return this.owner.rt.clock.now();
  }

  wait(seconds: number): Promise<void> {
    return this.owner.wait(seconds * 1000);
  }

  listen(interrupt: boolean): void {
    this.owner.listen(interrupt);
  }

  nextInput(seconds: number): Promise<PartyInput | null> {
    return this.owner.nextInput(seconds * 1000);
  }

  unlisten(): void {
    this.owner.unlisten();
  }

  discardInput(input: PartyInput, reason: string): void {
    this.owner.discardInput(input, reason);
  }

  resolveUrl(url: string): string | undefined {
    return this.owner.rt.resolveUrl(url, this.documentUrl);
  }

  newSid(prefix: string): string {
    return this.owner.rt.sids.next(prefix);
  }

  notify(code: string, log: 0 | 1, message: string, url?: string): void {
    this.owner.rt.notify(this.owner.record.sid, code, log, message, url ?? this.documentUrl);
  }

  gather(record: GatherRecord): void {
    this.owner.rt.sink.gather?.(record);
  }

  recording(record: RecordingRecord, wav: Uint8Array): void {
    this.owner.rt.sink.recording?.(record, wav);
  }

  message(record: MessageRecord): void {
    this.owner.rt.sink.message?.(record);
  }

  fetchMedia(url: string): Promise<FetchResult> {
    return this.owner.rt.request(this.owner.record.sid, 'media', url, 'GET', {}, 'media');
  }

  async mediaSeconds(url: string): Promise<number | null> {
    const known = this.owner.rt.mediaSeconds.get(url);
    if (known !== undefined) return known;
    return this.lengthOf(url, await this.fetchMedia(url));
  }

  play(source: MediaSource): Promise<PlayFailed | undefined> {
    return this.owner.play(source);
  }

  record(options: RecordOptions): Promise<{ recording: LineRecording; interrupted?: Interrupted }> {
    return this.owner.recordAudio(options);
  }

  /**
   * One async step, as `mediaSeconds`: a Play starts at the same turn whichever it uses. A line
   * that plays real audio gets the file's bytes, fetched for every Play.
   */
  async audio(url: string): Promise<MediaSource | null> {
    if (this.owner.line?.needsAudioBytes) return this.audioBytes(url);
    const known = this.owner.rt.mediaSeconds.get(url);
    if (known !== undefined) return { kind: 'audio', url, seconds: known };
    const seconds = this.lengthOf(url, await this.fetchMedia(url));
    return seconds === null ? null : { kind: 'audio', url, seconds };
  }

  private async audioBytes(url: string): Promise<MediaSource | null> {
    const res = await this.fetchMedia(url);
    if (!this.fetched(url, res)) return null;
    const bytes = typeof res.body === 'string' ? new TextEncoder().encode(res.body) : res.body;
    const seconds = mediaLength(bytes) ?? this.settings.playDefaultSeconds;
    return { kind: 'audio', url, seconds, bytes, contentType: res.contentType };
  }

  /**
   * False, with warning 13233, when media could not be fetched: the platform's media cache
   * fails the download on an I/O error or an error status, and the call hangs up
   * (VoiceInterpreter.onDiskCacheResponse).
   */
  private fetched(url: string, res: FetchResult): boolean {
    if (res.status !== 0 && res.status < 300) return true;
    const why = res.status === 0 ? res.error : `HTTP ${res.status}`;
    this.notify('13233', 1, `media could not be fetched (${why})`, url);
    return false;
  }

  /** Seconds of fetched media from its WAV header (cached), else the default (warning 11205). */
  private lengthOf(url: string, res: FetchResult): number | null {
    if (!this.fetched(url, res)) return null;
    const bytes = typeof res.body === 'string' ? new TextEncoder().encode(res.body) : res.body;
    const seconds = res.status >= 200 ? mediaLength(bytes) : undefined;
    if (seconds === undefined) {
      const why = res.status < 200 ? `HTTP ${res.status}` : 'not a WAV or MP4 file';
      this.notify(
        '11205',
        1,
        `media length unknown (${why}); using ${this.settings.playDefaultSeconds} s`,
        url,
      );
      return this.settings.playDefaultSeconds;
    }
    this.owner.rt.mediaSeconds.set(url, seconds);
    return seconds;
  }

  send(kind: RequestKind, url: string, method: HttpMethod, params: Record<string, string>): void {
    const sid = this.owner.record.sid;
    // Not bound to the call: an action notified just before a hang-up still reaches its URL.
    this.owner.rt.request(sid, kind, url, method, params, 'callback', true).then((res) => {
      if (res.status < 200 || res.status >= 300) {
        const why = res.status === 0 ? res.error : `HTTP ${res.status}`;
        this.owner.rt.notify(sid, '11205', 1, `${kind} request failed: ${why}`, url);
      }
    });
  }

  get dispatch(): VerbDispatch {
    return dispatchVerb;
  }

  run(verb: Verb): Promise<VerbOutcome> {
    const handler = verbHandlers[verb.verb] ?? unknownVerb;
    return handler(this, verb);
  }

  isRinging(): boolean {
    return this.owner.record.status !== 'in-progress';
  }

  /** Request parameters of this call plus `extra`. */
  params(extra?: Record<string, string>): Record<string, string> {
    return this.screening ? this.owner.screeningParams(extra) : this.owner.params(extra);
  }
}
