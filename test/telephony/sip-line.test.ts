/**
 * The engine's CallLine over a SIP call, against a fake call with media: what it plays, how
 * Record plays its beep and ends on a finishOnKey key, how a stopped play stays silent, and
 * which SIP answer refuses a call the engine ends before answering.
 */
import { describe, expect, it } from 'vitest';
import type { LineRecording, MediaSource } from '../../src/engine/ports/call-line.js';
import { CALL_RATE, decodeWav } from '../../src/telephony/audio/decode.js';
import type { Recording, RecordResult } from '../../src/telephony/media/host.js';
import type { FarEndEnd, MediaCall } from '../../src/telephony/media-call.js';
import { SipCallLine } from '../../src/telephony/sip-line.js';
import type { TextToSpeech } from '../../src/telephony/tts/port.js';

/** A SIP call whose media are a log: plays end when the test says, recordings when stopped. */
class FakeCall implements MediaCall {
  answered = true;
  ended = false;
  onDigit: ((key: string) => void) | undefined;
  onEnd: ((how: FarEndEnd) => void) | undefined;
  onFinished: (() => void) | undefined;
  readonly log: string[] = [];
  /** The play under way: `finish` ends it as played to its end. */
  playing: { pcm: Int16Array; key?: string; finish: () => void } | undefined;
  /** The recording under way, with the audio it will hand back. */
  recording: { stop: () => void } | undefined;

  answer(): Promise<void> {
    this.log.push('answer');
    return Promise.resolve();
  }
  play(pcm: Int16Array, _loop: number, signal?: AbortSignal, key?: string): Promise<boolean> {
    this.log.push(`play ${pcm.length} ${key ?? ''}`);
    return new Promise((resolve) => {
      this.playing = { pcm, key, finish: () => resolve(false) };
      signal?.addEventListener('abort', () => {
        this.log.push('stop');
        resolve(true);
      });
    });
  }
  record(maxMs: number, silenceMs: number): Recording | undefined {
    this.log.push(`record ${maxMs} ${silenceMs}`);
    let resolve: (result: RecordResult) => void = () => {};
    const done = new Promise<RecordResult>((r) => {
      resolve = r;
    });
    const stop = () => resolve({ pcm: new Int16Array(4000).fill(100), reason: 'stopped', silentMs: 0 });
    this.recording = { stop };
    return { done, stop };
  }
  setLocalDirection(direction: string): void {
    this.log.push(`direction ${direction}`);
  }
  setMuted(muted: boolean): void {
    this.log.push(`muted ${muted}`);
  }
  reject(status: number): void {
    this.ended = true;
    this.log.push(`reject ${status}`);
  }
  hangup(): void {
    this.ended = true;
    this.log.push('hangup');
  }
  mediaChannel() {
    return undefined;
  }
}

const tts = (asked: string[] = []): TextToSpeech => ({
  synthesize: async (request) => {
    asked.push(request.text);
    return new Int16Array(request.text.length * 80);
  },
});

/** Lets the line's promise chains run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the SIP call line', () => {
  it('records after a beep of beepSeconds and ends on a finishOnKey key, which is reported too', async () => {
    const call = new FakeCall();
    const line = new SipCallLine(call, tts());
    const keys: string[] = [];
    line.attach({ input: (i) => keys.push(i.kind === 'dtmf' ? i.keys : i.text), hangup: () => {} });
    let recorded: LineRecording | undefined;
    line.record({ maxLength: 10, timeout: 3, finishOnKey: '#', playBeep: true, beepSeconds: 0.25 }, (r) => {
      recorded = r;
    });
    await settle();
    // The beep: 0.25 s of a loud 1 kHz tone, encoded once for every call.
    expect(call.log).toEqual([`play ${0.25 * CALL_RATE} beep|0.25`]);
    expect(Math.max(...(call.playing?.pcm ?? []))).toBeGreaterThan(9000);
    call.playing?.finish();
    await settle();
    expect(call.log.at(-1)).toBe('record 10000 3000');
    // A key outside finishOnKey goes on recording; '#' ends it.
    call.onDigit?.('5');
    await settle();
    expect(recorded).toBeUndefined();
    call.onDigit?.('#');
    await settle();
    expect(keys).toEqual(['5', '#']);
    expect(recorded).toMatchObject({ started: true, endedBy: 'key', key: '#', duration: 0.5 });
    expect(decodeWav(recorded?.wav ?? new Uint8Array())).toHaveLength(4000);
  });

  it('without playBeep records at once; stopped during the beep it never starts', async () => {
    const call = new FakeCall();
    const line = new SipCallLine(call, tts());
    line.record({ maxLength: 2, timeout: 5, finishOnKey: '', playBeep: false, beepSeconds: 0.25 }, () => {});
    await settle();
    expect(call.log).toEqual(['record 2000 5000']);
    const beeping = new FakeCall();
    let recorded: LineRecording | undefined;
    const handle = new SipCallLine(beeping, tts()).record(
      { maxLength: 2, timeout: 5, finishOnKey: '', playBeep: true, beepSeconds: 0.25 },
      (r) => {
        recorded = r;
      },
    );
    await settle();
    handle.stop();
    await settle();
    expect(beeping.log).toEqual([`play ${0.25 * CALL_RATE} beep|0.25`, 'stop']);
    expect(recorded).toMatchObject({ started: false, endedBy: 'stopped', duration: 0 });
  });

  it('a Record that answers the call records once the answer has opened the media', async () => {
    const call = new FakeCall();
    let opened: () => void = () => {};
    call.answer = () => {
      call.log.push('answer');
      return new Promise<void>((resolve) => {
        opened = resolve;
      });
    };
    const line = new SipCallLine(call, tts());
    line.answer();
    line.record({ maxLength: 2, timeout: 5, finishOnKey: '', playBeep: false, beepSeconds: 0.25 }, () => {});
    await settle();
    expect(call.log).toEqual(['answer']);
    opened();
    await settle();
    expect(call.log).toEqual(['answer', 'record 2000 5000']);
  });

  it('a call ended while its answer opens the media is answered, then hung up (200, then BYE)', async () => {
    const call = new FakeCall();
    call.answered = false;
    let opened: () => void = () => {};
    call.answer = () => {
      call.log.push('answer');
      return new Promise<void>((resolve) => {
        opened = () => {
          call.answered = true;
          resolve();
        };
      });
    };
    const line = new SipCallLine(call, tts());
    line.answer();
    line.end('completed');
    await settle();
    expect(call.log).toEqual(['answer']);
    opened();
    await settle();
    expect(call.log).toEqual(['answer', 'hangup']);
  });

  it('plays speech through the TTS port, and a stopped play (barge-in) stops the media and never calls done', async () => {
    const call = new FakeCall();
    const asked: string[] = [];
    const line = new SipCallLine(call, tts(asked));
    const speech: MediaSource = { kind: 'speech', text: 'Press one', voice: 'man', language: 'en' };
    line.prepare([speech, { kind: 'silence', seconds: 1 }]);
    expect(asked).toEqual(['Press one']);
    const outcomes: string[] = [];
    const handle = line.play(speech, (o) => outcomes.push(o));
    await settle();
    expect(call.log).toEqual(['play 720 speech|man|en|Press one']);
    handle.stop();
    await settle();
    expect(call.log.at(-1)).toBe('stop');
    expect(outcomes).toEqual([]);
    line.play({ kind: 'silence', seconds: 0.5 }, (o) => outcomes.push(o));
    await settle();
    expect(call.playing?.pcm).toEqual(new Int16Array(0.5 * CALL_RATE));
    call.playing?.finish();
    await settle();
    expect(outcomes).toEqual(['done']);
  });

  it('refuses a call ended before its answer: 404 unknown number, 603 rejected, 486 busy; BYE once answered', () => {
    const cases: Array<[Parameters<SipCallLine['end']>, string]> = [
      [['failed', 'unknown-number'], 'reject 404'],
      [['busy', 'rejected'], 'reject 603'],
      [['busy'], 'reject 486'],
    ];
    for (const [args, expected] of cases) {
      const call = new FakeCall();
      call.answered = false;
      new SipCallLine(call, tts()).end(...args);
      expect(call.log).toEqual([expected]);
    }
    const answered = new FakeCall();
    new SipCallLine(answered, tts()).end('completed');
    expect(answered.log).toEqual(['hangup']);
  });

  it('reports the far end hanging up', () => {
    const call = new FakeCall();
    const line = new SipCallLine(call, tts());
    let hungUp = 0;
    line.attach({ input: () => {}, hangup: () => hungUp++ });
    call.onEnd?.('hangup');
    expect(hungUp).toBe(1);
  });
});
