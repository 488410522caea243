import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { JitterBuffer } from '../../../src/telephony/media/jitter.js';
import { Recorder } from '../../../src/telephony/media/recorder.js';

/** 20 ms of µ-law: a 400 Hz tone, or silence. */
function frame(loud: boolean): Uint8Array {
  const pcm = new Int16Array(160);
  if (loud)
    for (let i = 0; i < 160; i++) pcm[i] = Math.round(6000 * Math.sin((2 * Math.PI * 400 * i) / 8000));
  return alawmulaw.mulaw.encode(pcm);
}

/** Feeds one packet per tick (as a steady caller would) and ticks until the recorder stops. */
function run(
  recorder: Recorder,
  jitter: JitterBuffer,
  loudTicks: number,
  limit = 1000,
): { ticks: number; reason?: string } {
  for (let t = 0; t < limit; t++) {
    jitter.push(t & 0xffff, frame(t < loudTicks));
    const reason = recorder.tick();
    if (reason) return { ticks: t + 1, reason };
  }
  return { ticks: limit };
}

describe('recorder', () => {
  it('stops after `timeout` of silence by energy, keeping what was heard', () => {
    const jitter = new JitterBuffer();
    const recorder = new Recorder(1, 60_000, 1000, 'PCMU', jitter);
    // 1 s of tone, then silence: it stops 1 s into the silence (plus the 40 ms buffer).
    const { ticks, reason } = run(recorder, jitter, 50);
    expect(reason).toBe('silence');
    expect(ticks).toBeGreaterThanOrEqual(100);
    expect(ticks).toBeLessThanOrEqual(103);
    const pcm = recorder.take();
    expect(pcm.length).toBe(ticks * 160);
    const loud = pcm.subarray(0, 50 * 160).filter((s) => Math.abs(s) > 1000).length;
    expect(loud).toBeGreaterThan(1000);
  });

  it('stops at `maxLength` of wall-clock audio, silence included, with no timeout set', () => {
    const jitter = new JitterBuffer();
    const recorder = new Recorder(1, 2000, 0, 'PCMU', jitter);
    const { ticks, reason } = run(recorder, jitter, 10);
    expect(reason).toBe('max-length');
    expect(ticks).toBe(100);
    expect(recorder.take().length).toBe(16000);
  });

  it('records silence for the ticks when nothing arrives', () => {
    const jitter = new JitterBuffer();
    const recorder = new Recorder(1, 200, 0, 'PCMA', jitter);
    let reason: string | undefined;
    for (let t = 0; t < 10 && !reason; t++) reason = recorder.tick();
    expect(reason).toBe('max-length');
    expect(recorder.take()).toEqual(new Int16Array(1600));
  });

  it('keeps a jittery, lossy line whole: at most 2 % silent frames at 5 % loss and 40±20 ms jitter', () => {
    // As a session records: its jitter buffer grows on underruns, single losses are concealed.
    const jitter = new JitterBuffer(480, 2560, 320);
    const recorder = new Recorder(1, 60_000, 0, 'PCMU', jitter);
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const packets = 1500;
    const arrivals = Array.from({ length: packets }, (_, i) => ({
      i,
      at: i * 20 + 40 + (random() * 40 - 20),
      lost: random() < 0.05,
    }))
      .filter((p) => !p.lost)
      .sort((a, b) => a.at - b.at);
    let next = 0;
    for (let tick = 0; tick < packets + 20; tick++) {
      while (next < arrivals.length && arrivals[next].at <= tick * 20) {
        jitter.push(arrivals[next].i & 0xffff, frame(true));
        next++;
      }
      recorder.tick();
    }
    const pcm = recorder.take();
    // 20 ms frames past the first half second (the buffer filling), loud or silent.
    let silent = 0;
    let frames = 0;
    for (let f = 25; f < Math.floor(pcm.length / 160) - 20; f++) {
      frames++;
      let sum = 0;
      for (let k = 0; k < 160; k++) sum += Math.abs(pcm[f * 160 + k]);
      if (sum / 160 < 500) silent++;
    }
    expect(silent / frames).toBeLessThanOrEqual(0.02);
  });
});
