import type { Clock, TimerHandle } from './clock/clock.js';
import { Interrupted } from './errors.js';
import type {
  CallLine,
  CallLineEvents,
  LineRecording,
  MediaHandle,
  MediaSource,
  PlayOutcome,
  RecordOptions,
} from './ports/call-line.js';
import { type EngineSettings, speakingSeconds } from './settings.js';
import type { PartyBehaviour, PartyInput } from './types.js';
import { writeWav } from './wav.js';

/** What the simulated far end uses of the engine: its clock and media constants. */
export interface SimulatedMedia {
  readonly clock: Clock;
  readonly settings: EngineSettings;
}

/**
 * The call side a simulated recording listens on: the call's own input queue and single wait
 * slot (a `Call`), so that keys and phrases show in traces exactly as for a Gather.
 */
export interface CallInputs {
  now(): number;
  wait(ms: number): Promise<void>;
  listen(interrupt: boolean): void;
  nextInput(ms: number): Promise<PartyInput | null>;
  unlisten(): void;
}

/** A simulated recording, with the interruption (hang-up, redirect) that stopped it, if any. */
export interface SimulatedRecording {
  recording: LineRecording;
  interrupted?: Interrupted;
}

/** Seconds a source lasts on a simulated line (DTMF: half a second per key or `w`). */
export function simulatedSeconds(source: MediaSource, settings: EngineSettings): number {
  switch (source.kind) {
    case 'speech':
      return speakingSeconds(source.text, settings);
    case 'audio':
    case 'silence':
    case 'beep':
      return source.seconds;
    case 'digits':
      return source.digits.length / 2;
  }
}

/** A timer on the engine clock as a media handle. */
class TimedMedia implements MediaHandle {
  constructor(
    private readonly clock: Clock,
    private readonly timer: TimerHandle,
  ) {}

  stop(): void {
    this.clock.clearTimeout(this.timer);
  }
}

/**
 * The default `CallLine`: a simulated party with a behaviour (see `PartyBehaviour`). Media
 * takes its simulated length on the engine clock (Say `text.length / 15` s, Play the WAV's
 * length...); once answered, the party presses its keys, says its phrases and hangs up at its
 * times. Deterministic on the virtual clock.
 */
export class SimulatedLine implements CallLine {
  private events: CallLineEvents | null = null;
  private timers: TimerHandle[] | null = null;

  constructor(
    private readonly media: SimulatedMedia,
    readonly party: PartyBehaviour,
  ) {}

  attach(events: CallLineEvents): void {
    this.events = events;
  }

  /** Starts the party's timed behaviour: keys, phrases, hang-up, counted from the answer. */
  answer(): void {
    const p = this.party;
    const events = this.events;
    if (!events || (!p.digits?.length && !p.speech?.length && p.hangupAfter === undefined)) return;
    const clock = this.media.clock;
    const timers: TimerHandle[] = [];
    for (const d of p.digits ?? []) {
      timers.push(clock.setTimeout(() => events.input({ kind: 'dtmf', keys: d.keys }), d.at * 1000));
    }
    for (const s of p.speech ?? []) {
      timers.push(clock.setTimeout(() => events.input({ kind: 'speech', text: s.text }), s.at * 1000));
    }
    if (p.hangupAfter !== undefined) {
      timers.push(clock.setTimeout(() => events.hangup(), p.hangupAfter * 1000));
    }
    this.timers = timers;
  }

  end(): void {
    if (this.timers) for (const t of this.timers) this.media.clock.clearTimeout(t);
    this.timers = null;
    this.events = null;
  }

  setDirection(): void {}

  mute(): void {}

  /** Seconds `source` lasts on this line (a call plays it as a wait of that length). */
  secondsOf(source: MediaSource): number {
    return simulatedSeconds(source, this.media.settings);
  }

  play(source: MediaSource, done: (outcome: PlayOutcome) => void): MediaHandle {
    const clock = this.media.clock;
    const ms = this.secondsOf(source) * 1000;
    return new TimedMedia(
      clock,
      clock.setTimeout(() => done('done'), ms),
    );
  }

  /** The party hears keys sent down the line as its own input (Dial `sendDigits`). */
  sendDigits(digits: string): void {
    this.events?.input({ kind: 'dtmf', keys: digits });
  }

  /**
   * Records without a call to listen on: the recording lasts until `stop` or `maxLength`
   * (calls record through {@link recordOn}, which hears the party's keys and phrases).
   */
  record(options: RecordOptions, done: (recording: LineRecording) => void): MediaHandle {
    const clock = this.media.clock;
    const start = clock.now() + (options.playBeep ? options.beepSeconds * 1000 : 0);
    let over = false;
    const finish = (endedBy: LineRecording['endedBy']): void => {
      if (over) return;
      over = true;
      clock.clearTimeout(timer);
      const started = clock.now() >= start;
      const duration = started ? Math.round(clock.now() - start) / 1000 : 0;
      done({ wav: writeWav(duration), duration, started, endedBy });
    };
    const timer = clock.setTimeout(
      () => finish('max-length'),
      start - clock.now() + options.maxLength * 1000,
    );
    return { stop: () => finish('stopped') };
  }

  /**
   * Records the party on `call`: after the beep, until a `finishOnKey` key, `maxLength`, or
   * `timeout` seconds of silence (the party is silent except while it speaks a phrase), or
   * until the call's wait is interrupted (hang-up, redirect), which is returned with the
   * recording of the length recorded so far.
   */
  async recordOn(call: CallInputs, options: RecordOptions): Promise<SimulatedRecording> {
    const { timeout, maxLength, finishOnKey } = options;
    let start: number | undefined;
    let key: string | undefined;
    let endedBy: LineRecording['endedBy'] = 'silence';
    let interrupted: Interrupted | undefined;
    try {
      if (options.playBeep) await call.wait(options.beepSeconds * 1000);
      start = call.now();
      call.listen(false);
      const hardEnd = start + maxLength * 1000;
      let silenceEnd = start + timeout * 1000;
      for (;;) {
        const remaining = Math.min(silenceEnd, hardEnd) - call.now();
        if (remaining <= 0) break;
        // Through seconds and back, as the verb always waited: the same float deadlines.
        const seconds = remaining / 1000;
        const input = await call.nextInput(seconds * 1000);
        if (!input) break;
        if (input.kind === 'speech') {
          silenceEnd = call.now() + (speakingSeconds(input.text, this.media.settings) + timeout) * 1000;
          continue;
        }
        key = [...input.keys].find((k) => finishOnKey.includes(k));
        if (key) break;
      }
      if (key) endedBy = 'key';
      else if (silenceEnd >= hardEnd) endedBy = 'max-length';
    } catch (err) {
      if (!(err instanceof Interrupted)) throw err;
      interrupted = err;
      endedBy = 'stopped';
    } finally {
      call.unlisten();
    }
    const duration = start === undefined ? 0 : Math.round(call.now() - start) / 1000;
    const recording: LineRecording = {
      wav: writeWav(duration),
      duration,
      started: start !== undefined,
      endedBy,
    };
    if (key) recording.key = key;
    return interrupted ? { recording, interrupted } : { recording };
  }
}
