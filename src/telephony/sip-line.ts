import { createHash } from 'node:crypto';
import type {
  CallLine,
  CallLineEvents,
  LineEndReason,
  LineRecording,
  MediaDirection,
  MediaHandle,
  MediaSource,
  PlayOutcome,
  RecordOptions,
} from '../engine/ports/call-line.js';
import type { CallStatus } from '../engine/records.js';
import { CALL_RATE, encodeWav } from './audio/decode.js';
import { sourcePcm } from './audio/source-pcm.js';
import { beep } from './audio/tones.js';
import type { MediaChannel } from './media/host.js';
import type { MediaCall } from './media-call.js';
import type { TextToSpeech } from './tts/port.js';

/**
 * What makes a source's audio the same for every call, so the media worker encodes it once:
 * the text and voice of speech, a file's URL, the length of silence or a beep.
 */
function keyOf(source: MediaSource): string | undefined {
  switch (source.kind) {
    case 'speech':
      return `speech|${source.voice}|${source.language}|${source.text}`;
    case 'audio':
      // By content: a URL may answer other audio next time.
      return source.bytes ? `audio|${createHash('sha1').update(source.bytes).digest('base64')}` : undefined;
    case 'silence':
      return `silence|${source.seconds}`;
    case 'beep':
      return `beep|${source.seconds}`;
    default:
      return undefined;
  }
}

/** SIP answers to a call the engine ends before answering it. */
function refusalOf(status: CallStatus, reason: LineEndReason | undefined): number {
  if (reason === 'unknown-number') return 404;
  if (reason === 'rejected') return 603;
  if (status === 'busy') return 486;
  if (reason === 'shutdown') return 503;
  if (status === 'failed') return 500;
  return 480;
}

/**
 * The engine's `CallLine` over a SIP call, inbound or outgoing: Say through the TTS port, Play from the
 * fetched bytes (any WAV, resampled to 8 kHz), Pause as silence, Record from the caller's RTP,
 * keys from RFC 4733 and SIP INFO. Before the answer there is no media: a play (a Pause on a
 * ringing call) only takes its time.
 */
export class SipCallLine implements CallLine {
  readonly needsAudioBytes = true;
  private events: CallLineEvents | undefined;
  private answering: Promise<void> | undefined;
  /** The recording under way watches keys for its `finishOnKey`. */
  private keyWatcher: ((key: string) => void) | undefined;
  private readonly decoded = new Map<string, Int16Array>();

  constructor(
    readonly call: MediaCall,
    private readonly tts: TextToSpeech,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    call.onDigit = (key) => {
      this.keyWatcher?.(key);
      this.events?.input({ kind: 'dtmf', keys: key });
    };
    call.onEnd = () => this.events?.hangup();
  }

  attach(events: CallLineEvents): void {
    this.events = events;
  }

  answer(): void {
    this.answering ??= this.call.answer().catch((err) => {
      this.onError(err);
      this.call.hangup();
      this.events?.hangup();
    });
  }

  /** Resolves once the answer under way, if any, has opened the call's media. */
  opened(): Promise<void> {
    return this.answering ?? Promise.resolve();
  }

  end(status: CallStatus, reason?: LineEndReason): void {
    this.keyWatcher = undefined;
    if (this.call.ended) return;
    if (this.call.answered) this.call.hangup();
    // Answered by the engine, the media still opening: the caller gets the 200, then our BYE
    // (ending now would refuse a call the records say was answered).
    else if (this.answering)
      void this.answering.then(() => {
        if (!this.call.ended) this.call.hangup();
      });
    else this.call.reject(refusalOf(status, reason));
  }

  setDirection(direction: MediaDirection): void {
    // Our own hold offer needs a re-INVITE of ours; until then the media follow it locally.
    this.call.setLocalDirection(direction);
  }

  mute(muted: boolean): void {
    this.call.setMuted(muted);
  }

  play(source: MediaSource, done: (outcome: PlayOutcome) => void): MediaHandle {
    const abort = new AbortController();
    void sourcePcm(source, this.tts, 'Play', this.decoded).then(
      async (pcm) => {
        if (abort.signal.aborted) return;
        const stopped = await this.playPcm(pcm, abort.signal, keyOf(source));
        if (!stopped && !abort.signal.aborted) done('done');
      },
      (err) => {
        this.onError(err);
        if (!abort.signal.aborted) done('failed');
      },
    );
    return { stop: () => abort.abort() };
  }

  record(options: RecordOptions, done: (recording: LineRecording) => void): MediaHandle {
    let stopped = false;
    const beeping = new AbortController();
    let stopRecording: (() => void) | undefined;
    let key: string | undefined;
    const finish = (recording: LineRecording) => {
      this.keyWatcher = undefined;
      done(recording);
    };
    const start = async () => {
      if (options.playBeep)
        await this.playPcm(beep(options.beepSeconds), beeping.signal, `beep|${options.beepSeconds}`);
      // A Record that answers the call (its first verb, no beep) waits for the media to open.
      else await this.opened();
      if (stopped) {
        finish({ wav: encodeWav(new Int16Array(0)), duration: 0, started: false, endedBy: 'stopped' });
        return;
      }
      const recording = this.call.record(options.maxLength * 1000, options.timeout * 1000);
      if (!recording) {
        finish({ wav: encodeWav(new Int16Array(0)), duration: 0, started: true, endedBy: 'stopped' });
        return;
      }
      stopRecording = recording.stop;
      this.keyWatcher = (pressed) => {
        if (options.finishOnKey.includes(pressed) && key === undefined) {
          key = pressed;
          recording.stop();
        }
      };
      const result = await recording.done;
      finish({
        wav: encodeWav(result.pcm),
        duration: Math.round((result.pcm.length / CALL_RATE) * 1000) / 1000,
        started: true,
        endedBy: key !== undefined ? 'key' : result.reason,
        key,
      });
    };
    start().catch((err) => {
      this.onError(err);
      finish({ wav: encodeWav(new Int16Array(0)), duration: 0, started: false, endedBy: 'stopped' });
    });
    return {
      stop: () => {
        stopped = true;
        beeping.abort();
        stopRecording?.();
      },
    };
  }

  /** Keys in the media: RFC 4733 when the far end took telephone-event, else in-band tones. */
  sendDigits(digits: string): void {
    if (this.call.answered && !this.call.ended) this.call.mediaChannel()?.sendDigits(digits);
  }

  /** The call's media once it is answered (a conference joins it); undefined when it never is or has ended. */
  async whenMedia(): Promise<MediaChannel | undefined> {
    await this.opened();
    return this.call.mediaChannel();
  }

  prepare(sources: readonly MediaSource[]): void {
    for (const source of sources) {
      if (source.kind === 'speech') this.tts.synthesize(source).catch(() => {});
    }
  }

  /**
   * Plays PCM once; true when stopped. Before the answer (or once the call is over) there is
   * no media: it only takes its time, so a Pause on a ringing call still delays the answer.
   */
  private async playPcm(pcm: Int16Array, signal: AbortSignal | undefined, key?: string): Promise<boolean> {
    if (this.answering) await this.answering;
    if (this.call.answered && !this.call.ended) return this.call.play(pcm, 1, signal, key);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), (pcm.length / CALL_RATE) * 1000);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve(true);
        },
        { once: true },
      );
    });
  }
}
