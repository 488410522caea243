import type { Call, CallBridge } from './call.js';
import type { TimerHandle } from './clock/clock.js';
import type { LineBridge, RecordedAudio } from './ports/telephony.js';
import { API_VERSION, type RecordingRecord } from './records.js';
import type { ScriptSignal } from './script-signal.js';
import { writeWav } from './wav.js';

/**
 * Why a bridge ended: leg `a` or leg `b` ended (`a-hangup`, `b-hangup`), `timeLimit` passed
 * (`time-limit`), the signal given to `bridgeCalls` fired (`aborted`: the script of the verb
 * that made the bridge was stopped), a live modification took a leg out (`modified`), or leg
 * `a` pressed `*` with `hangupOnStar` (`hangup-on-star`).
 */
export type BridgeEnd = 'a-hangup' | 'b-hangup' | 'time-limit' | 'aborted' | 'modified' | 'hangup-on-star';

/** Options of {@link bridgeCalls}. */
export interface BridgeOptions {
  /** Seconds after which the bridge ends (`time-limit`). Default: no limit. */
  timeLimit?: number;
  /** Record the bridge: a Recording record (on leg `a`) and its WAV go to the record sink. */
  record?: boolean;
  /** The script of the verb that bridges; when it stops, the bridge ends (`aborted`). */
  signal?: ScriptSignal;
  /** Leg `a` pressing `*` ends the bridge (`hangup-on-star`): Dial `hangupOnStar`. */
  hangupOnStar?: boolean;
}

/** The recording of a bridge. */
export interface BridgeRecording {
  sid: string;
  /** Seconds, decimal. */
  duration: number;
  /** `settings.recordingUrl` of the recording (the `RecordingUrl` action parameter). */
  url: string;
}

/** How a bridge went. Times are ms since epoch on the engine clock. */
export interface BridgeResult {
  endedBy: BridgeEnd;
  startTime: number;
  endTime: number;
  /** Whole seconds bridged, rounded up (the `DialCallDuration` rule). */
  duration: number;
  /** `keep` when a live modification took leg `b` over (moved or kept it): do not hang it up. */
  release: 'hangup' | 'keep';
  recording?: BridgeRecording;
}

/** A live bridge between two calls; each call's `bridge` points to it while it lasts. */
export class Bridge implements CallBridge {
  /** What the bridging verb does with leg `b` when its own script stops. */
  release: 'hangup' | 'keep' = 'hangup';
  private finish: ((why: BridgeEnd) => void) | null = null;

  constructor(
    readonly a: Call,
    readonly b: Call,
  ) {}

  /** The other leg of the bridge. */
  peer(call: Call): Call {
    return call === this.a ? this.b : this.a;
  }

  /** Ends the bridge now (no-op once ended). */
  end(why: BridgeEnd): void {
    const finish = this.finish;
    this.finish = null;
    finish?.(why);
  }

  /** @internal Used by `bridgeCalls`. */
  onEnd(fn: (why: BridgeEnd) => void): void {
    this.finish = fn;
  }
}

/**
 * Connects two live calls until one of them ends, `timeLimit` passes, `signal` fires or a live
 * modification takes a leg out. Neither call is hung up here: the caller decides (Dial hangs up
 * the callee; a queue may put an agent back in its queue). Rejects nothing: a call that has
 * already ended gives an immediate result. While bridged, each call's `bridge` is set.
 */
export function bridgeCalls(a: Call, b: Call, options: BridgeOptions = {}): Promise<BridgeResult> {
  const rt = a.rt;
  const clock = rt.clock;
  const startTime = clock.now();
  const bridge = new Bridge(a, b);
  return new Promise<BridgeResult>((resolve) => {
    let timer: TimerHandle | null = null;
    let link: LineBridge | undefined;
    const offA = a.watch((c) => c.ended && bridge.end('a-hangup'));
    const offB = b.watch((c) => c.ended && bridge.end('b-hangup'));
    const offStar = options.hangupOnStar
      ? a.watchKeys((keys) => keys.includes('*') && bridge.end('hangup-on-star'))
      : undefined;
    bridge.onEnd((endedBy) => {
      offA();
      offB();
      offStar?.();
      if (timer) clock.clearTimeout(timer);
      if (a.bridge === bridge) a.bridge = null;
      if (b.bridge === bridge) b.bridge = null;
      const endTime = clock.now();
      rt.listener?.({
        type: 'bridge',
        at: endTime,
        callSid: a.record.sid,
        peerSid: b.record.sid,
        action: 'end',
        reason: endedBy,
      });
      const result: BridgeResult = {
        endedBy,
        startTime,
        endTime,
        duration: Math.ceil((endTime - startTime) / 1000),
        release: bridge.release,
      };
      const finish = (audio: RecordedAudio | undefined): void => {
        if (options.record) result.recording = recordBridge(a, audio ?? silence(startTime, endTime), endTime);
        resolve(result);
      };
      // The lines part (a real bridge hands over its recording then); with none, nothing to part.
      if (link) link.disconnect(finish);
      else finish(undefined);
    });
    a.bridge = bridge;
    b.bridge = bridge;
    if (a.line && b.line && !a.ended && !b.ended && !options.signal?.aborted) {
      link = rt.telephony.connect(a.line, b.line, { record: options.record === true });
    }
    rt.listener?.({
      type: 'bridge',
      at: startTime,
      callSid: a.record.sid,
      peerSid: b.record.sid,
      action: 'start',
    });
    if (a.ended) bridge.end('a-hangup');
    else if (b.ended) bridge.end('b-hangup');
    else if (options.signal?.aborted) bridge.end('aborted');
    if (!a.bridge) return;
    options.signal?.onAbort(() => bridge.end('aborted'));
    if (options.timeLimit !== undefined) {
      timer = clock.setTimeout(() => {
        timer = null;
        bridge.end('time-limit');
      }, options.timeLimit * 1000);
    }
  });
}

/** A recording of the bridge's length, when its lines made none. */
function silence(start: number, end: number): RecordedAudio {
  const duration = Math.round(end - start) / 1000;
  return { wav: writeWav(duration), duration };
}

/** Writes the Recording record and WAV of a bridge, on leg `a`. */
function recordBridge(a: Call, audio: RecordedAudio, end: number): BridgeRecording {
  const rt = a.rt;
  const duration = audio.duration;
  const record: RecordingRecord = {
    sid: rt.sids.next('RE'),
    accountSid: a.record.accountSid,
    callSid: a.record.sid,
    duration,
    apiVersion: API_VERSION,
    dateCreated: end,
    dateUpdated: end,
  };
  rt.sink.recording?.(record, audio.wav);
  return { sid: record.sid, duration, url: rt.settings.recordingUrl(record.accountSid, record.sid) };
}
