import type { Clock, TimerHandle } from './clock/clock.js';
import { Interrupted, type InterruptReason } from './errors.js';
import type { CallLine, MediaHandle, MediaSource, PlayFailed, RecordOptions } from './ports/call-line.js';
import type { CallRecord } from './records.js';
import { SimulatedLine, type SimulatedRecording } from './simulated-line.js';
import type { EngineEventListener, PartyInput } from './types.js';
import { writeWav } from './wav.js';

/** A recording of nothing: Record on a call that has no line or has ended. */
const NO_RECORDING: SimulatedRecording['recording'] = {
  wav: writeWav(0),
  duration: 0,
  started: false,
  endedBy: 'stopped',
};

/** What the wait slot uses of its call's runtime. */
interface SlotRuntime {
  readonly clock: Clock;
  listener: EngineEventListener | undefined;
}

/**
 * The half of a `Call` its script waits in: the line to the far end, the far end's input as
 * verbs collect it, and the single pending wait (a timer, a play, a recording, the next input).
 * The script is sequential, so one slot suffices and no per-wait listeners exist.
 */
export abstract class CallSlot {
  /** The line to the far end; an outbound call has one once answered. */
  line: CallLine | null = null;
  protected inputs: PartyInput[] | null = null;
  protected interruptOnInput = false;
  protected pendingTimer: TimerHandle | null = null;
  protected pendingMedia: MediaHandle | null = null;
  protected pendingResolve: ((value: PartyInput | null) => void) | null = null;
  protected pendingReject: ((reason: Interrupted) => void) | null = null;
  /** Sees every key the party presses, whatever verb runs (Dial `hangupOnStar`). */
  private keyWatcher: ((keys: string) => void) | null = null;
  /** Stops the recording under way on a line that records real audio. */
  private recorder: ((why: Interrupted) => void) | null = null;

  abstract readonly rt: SlotRuntime;
  abstract readonly record: CallRecord;
  abstract readonly ended: boolean;

  /** The line reports the far end's input (`CallLineEvents`). */
  input(input: PartyInput): void {
    this.deliver(input);
  }

  /** Watches the party's keys while no verb listens too (a bridge); returns the unwatch. */
  watchKeys(fn: (keys: string) => void): () => void {
    this.keyWatcher = fn;
    return () => {
      if (this.keyWatcher === fn) this.keyWatcher = null;
    };
  }

  /** Sends keys to the far end (Dial `sendDigits` on an answered callee). */
  sendDigits(digits: string): void {
    this.line?.sendDigits(digits);
  }

  // --- party input ---

  /** Input from the party: heard by a listening verb, otherwise lost (as on a real line). */
  deliver(input: PartyInput): void {
    if (this.ended) return;
    const inputs = this.inputs;
    this.rt.listener?.({
      type: 'input',
      at: this.rt.clock.now(),
      callSid: this.record.sid,
      input,
      heard: inputs !== null,
    });
    if (input.kind === 'dtmf') this.keyWatcher?.(input.keys);
    if (!inputs) return;
    const resolve = this.pendingResolve;
    if (resolve) {
      this.clearPending();
      resolve(input);
      return;
    }
    inputs.push(input);
    if (this.interruptOnInput) this.interrupt('input');
  }

  // --- the script's single wait slot ---

  /** True while a verb collects party input (Gather, Record). */
  get listening(): boolean {
    return this.inputs !== null;
  }

  listen(interrupt: boolean): void {
    this.inputs ??= [];
    this.interruptOnInput = interrupt;
  }

  unlisten(): void {
    const left = this.inputs;
    this.inputs = null;
    this.interruptOnInput = false;
    if (left) for (const input of left) this.discardInput(input, 'not taken');
  }

  /** Input a listening verb heard but did not use. */
  discardInput(input: PartyInput, reason: string): void {
    this.rt.listener?.({
      type: 'input-discarded',
      at: this.rt.clock.now(),
      callSid: this.record.sid,
      input,
      reason,
    });
  }

  wait(ms: number): Promise<void> {
    if (this.ended) return Promise.reject(Interrupted.of('ended'));
    if (this.interruptOnInput && this.inputs?.length) return Promise.reject(Interrupted.of('input'));
    return new Promise<void>((resolve, reject) => {
      this.pendingReject = reject;
      this.pendingTimer = this.rt.clock.setTimeout(() => {
        this.pendingTimer = null;
        this.pendingReject = null;
        resolve();
      }, ms);
    });
  }

  now(): number {
    return this.rt.clock.now();
  }

  /**
   * Plays `source` on the line, in the wait slot: resolves when it has played (with `'failed'`
   * when the line could not play it), rejects with `Interrupted` as `wait` does (the play is
   * stopped then).
   */
  play(source: MediaSource): Promise<PlayFailed | undefined> {
    const line = this.line;
    if (this.ended) return Promise.reject(Interrupted.of('ended'));
    if (this.interruptOnInput && this.inputs?.length) return Promise.reject(Interrupted.of('input'));
    if (!line) return Promise.resolve(undefined);
    // A simulated party's line plays in the wait slot itself: nothing more per play than a wait
    // (which resolves with nothing, as a played source does).
    if (line instanceof SimulatedLine) return this.wait(line.secondsOf(source) * 1000) as Promise<undefined>;
    return new Promise<PlayFailed | undefined>((resolve, reject) => {
      this.pendingReject = reject;
      const handle = line.play(source, (outcome) => {
        if (this.pendingReject !== reject) return;
        this.pendingMedia = null;
        this.pendingReject = null;
        resolve(outcome === 'failed' ? outcome : undefined);
      });
      if (this.pendingReject === reject) this.pendingMedia = handle;
    });
  }

  /**
   * Records the far end (Record). Never rejects: an interruption (hang-up, redirect) stops the
   * recording and comes back with what was recorded.
   */
  recordAudio(options: RecordOptions): Promise<SimulatedRecording> {
    const line = this.line;
    if (line instanceof SimulatedLine) return line.recordOn(this, options);
    if (this.ended || !line)
      return Promise.resolve({ recording: NO_RECORDING, interrupted: Interrupted.of('ended') });
    return new Promise<SimulatedRecording>((resolve) => {
      let interrupted: Interrupted | undefined;
      let handle: MediaHandle | undefined;
      // Stopped by an interruption, the line still hands over what it recorded.
      const recorder = (why: Interrupted): void => {
        interrupted ??= why;
        handle?.stop();
      };
      this.recorder = recorder;
      handle = line.record(options, (recording) => {
        if (this.recorder === recorder) this.recorder = null;
        resolve(interrupted ? { recording, interrupted } : { recording });
      });
    });
  }

  nextInput(ms: number): Promise<PartyInput | null> {
    if (this.ended) return Promise.reject(Interrupted.of('ended'));
    const buffered = this.inputs?.shift();
    if (buffered) return Promise.resolve(buffered);
    this.interruptOnInput = false;
    return new Promise<PartyInput | null>((resolve, reject) => {
      this.pendingResolve = resolve;
      this.pendingReject = reject;
      this.pendingTimer = this.rt.clock.setTimeout(() => {
        this.clearPending();
        resolve(null);
      }, ms);
    });
  }

  /** Rejects the pending wait, if any, with `Interrupted(reason)`. */
  interrupt(reason: InterruptReason): void {
    const reject = this.pendingReject;
    const media = this.pendingMedia;
    if (this.pendingTimer) this.rt.clock.clearTimeout(this.pendingTimer);
    this.clearPending();
    media?.stop();
    reject?.(Interrupted.of(reason));
    if (this.recorder) this.stopRecording(Interrupted.of(reason));
  }

  private stopRecording(why: Interrupted): void {
    const recorder = this.recorder;
    this.recorder = null;
    recorder?.(why);
  }

  /**
   * The call ended: stops the play or recording under way before the line ends (the wait is
   * rejected after, when the script stops).
   */
  protected stopMedia(): void {
    const media = this.pendingMedia;
    this.pendingMedia = null;
    media?.stop();
    if (this.recorder) this.stopRecording(Interrupted.of('ended'));
  }

  private clearPending(): void {
    if (this.pendingTimer) this.rt.clock.clearTimeout(this.pendingTimer);
    this.pendingTimer = null;
    this.pendingMedia = null;
    this.pendingResolve = null;
    this.pendingReject = null;
  }
}
