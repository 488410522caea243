import type dgram from 'node:dgram';
import alawmulaw from 'alawmulaw';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BridgeRecorder } from '../../../src/telephony/media/bridge-recorder.js';
import { Histogram } from '../../../src/telephony/media/histogram.js';
import type { Codec, MediaEvent } from '../../../src/telephony/media/protocol.js';
import { writeRtp } from '../../../src/telephony/media/rtp.js';
import { MediaSession } from '../../../src/telephony/media/session.js';
import { holds, tone } from '../tones.js';

function session(id: number, codec: Codec, events: MediaEvent[]) {
  let deliver: (packet: Buffer) => void = () => {};
  const socket = {
    // Every packet comes from the far end's SDP address (where the session sends).
    on: (_event: string, fn: (packet: Buffer, from: { address: string; port: number }) => void) => {
      deliver = (packet) => fn(packet, { address: '127.0.0.1', port: 9 });
    },
    send: () => {},
    close: () => {},
  } as unknown as dgram.Socket;
  const media = new MediaSession(
    {
      type: 'open',
      id,
      codec,
      payloadType: codec === 'PCMU' ? 0 : 8,
      remote: { address: '127.0.0.1', port: 9 },
      send: true,
      receive: true,
    },
    socket,
    (event) => events.push(event),
    { sent: 0, received: 0, lost: 0, rejected: 0, interArrival: new Histogram() },
  );
  return { media, receive: (packet: Buffer) => deliver(packet) };
}

const packet = (codec: Codec, sequence: number, pcm: Int16Array) =>
  writeRtp(
    { payloadType: codec === 'PCMU' ? 0 : 8, marker: false, sequence, timestamp: sequence * 160, ssrc: 9 },
    codec === 'PCMU' ? alawmulaw.mulaw.encode(pcm) : alawmulaw.alaw.encode(pcm),
  );

describe('bridge recordings', () => {
  it('record both sides of a bridge mixed to mono (PCMU and PCMA), ending when the bridge is taken apart', () => {
    const events: MediaEvent[] = [];
    const a = session(1, 'PCMU', events);
    const b = session(2, 'PCMA', events);
    a.media.link(b.media);
    b.media.link(a.media);
    a.media.recordBridge(7, 60_000);
    const low = tone(440, 1, 6000);
    const high = tone(1330, 1, 6000);
    for (let i = 0; i < 50; i++) {
      a.receive(packet('PCMU', i, low.subarray(i * 160, i * 160 + 160)));
      b.receive(packet('PCMA', 300 + i, high.subarray(i * 160, i * 160 + 160)));
      a.media.tick();
      b.media.tick();
    }
    b.media.link(undefined);
    a.media.link(undefined);
    const recorded = events.filter((e) => e.type === 'recorded');
    expect(recorded).toHaveLength(1);
    const [done] = recorded;
    if (done?.type !== 'recorded') throw new Error('no recording');
    expect(done.id).toBe(1);
    expect(done.record).toBe(7);
    expect(done.reason).toBe('stopped');
    expect(done.pcm.length).toBe(50 * 160);
    const middle = done.pcm.subarray(800, 7200);
    expect(holds(middle, 440)).toBe(true);
    expect(holds(middle, 1330)).toBe(true);
  });

  it('end at their longest length, and when either side closes', () => {
    const events: MediaEvent[] = [];
    const a = session(1, 'PCMU', events);
    const b = session(2, 'PCMU', events);
    a.media.link(b.media);
    b.media.link(a.media);
    a.media.recordBridge(1, 100);
    for (let i = 0; i < 10; i++) a.media.tick();
    a.media.link(b.media);
    b.media.link(a.media);
    a.media.recordBridge(2, 10_000);
    a.media.tick();
    b.media.close();
    const recorded = events.flatMap((e) =>
      e.type === 'recorded' ? [[e.record, e.reason, e.pcm.length]] : [],
    );
    expect(recorded).toEqual([
      [1, 'max-length', 800],
      [2, 'stopped', 160],
    ]);
  });

  it('mix every frame as the saturated sum of both sides', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 160, maxLength: 160 }),
        fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 160, maxLength: 160 }),
        (left, right) => {
          const recorder = new BridgeRecorder(1, 1000);
          const encodedLeft = alawmulaw.mulaw.encode(Int16Array.from(left));
          const encodedRight = alawmulaw.alaw.encode(Int16Array.from(right));
          // The jitter buffer gives audio once 40 ms are held: three packets a side.
          for (let seq = 0; seq < 3; seq++) {
            recorder.push(0, seq, encodedLeft, 'PCMU');
            recorder.push(1, seq, encodedRight, 'PCMA');
          }
          recorder.tick();
          const mix = recorder.take();
          const l = alawmulaw.mulaw.decode(encodedLeft);
          const r = alawmulaw.alaw.decode(encodedRight);
          const expected = Int16Array.from(l, (v, i) => Math.max(-32768, Math.min(32767, v + r[i])));
          expect(mix).toEqual(expected);
        },
      ),
      { numRuns: 50 },
    );
  });
});
