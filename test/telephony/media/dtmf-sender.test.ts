import type dgram from 'node:dgram';
import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { DtmfReceiver } from '../../../src/telephony/media/dtmf.js';
import { Histogram } from '../../../src/telephony/media/histogram.js';
import { readRtp, writeRtp } from '../../../src/telephony/media/rtp.js';
import { MediaSession } from '../../../src/telephony/media/session.js';
import { holds } from '../tones.js';

/** A PCMU session whose sent packets are kept; with `dtmf`, telephone-event is that payload type. */
function session(dtmf?: number) {
  const sent: Buffer[] = [];
  let deliver: (packet: Buffer, from: { address: string; port: number }) => void = () => {};
  const socket = {
    on: (_event: string, fn: typeof deliver) => {
      deliver = fn;
    },
    send: (packet: Buffer) => sent.push(packet),
    close: () => {},
  } as unknown as dgram.Socket;
  const media = new MediaSession(
    {
      type: 'open',
      id: 1,
      codec: 'PCMU',
      payloadType: 0,
      dtmfPayloadType: dtmf,
      remote: { address: '127.0.0.1', port: 9 },
      send: true,
      receive: true,
    },
    socket,
    () => {},
    { sent: 0, received: 0, lost: 0, rejected: 0, interArrival: new Histogram() },
  );
  // The far end has sent its first packet: the session sends to it from now on.
  deliver(
    writeRtp(
      { payloadType: 0, marker: true, sequence: 1, timestamp: 0, ssrc: 7 },
      new Uint8Array(160).fill(0xff),
    ),
    { address: '127.0.0.1', port: 9 },
  );
  return { media, packets: () => sent.map((p) => readRtp(p)).filter((p) => p !== undefined) };
}

describe('sending keys', () => {
  it('sends RFC 4733 events of the negotiated payload type in the call stream, w as half a second', () => {
    const { media, packets } = session(96);
    media.sendDigits('1w#x');
    for (let i = 0; i < 60; i++) media.tick();
    const all = packets();
    // One stream: sequence numbers one after the other across audio and events.
    for (let i = 1; i < all.length; i++) expect(all[i].sequence).toBe((all[i - 1].sequence + 1) & 0xffff);
    const events = all.map((p, tick) => ({ ...p, tick })).filter((p) => p.payloadType === 96);
    const receiver = new DtmfReceiver();
    const heard = events.flatMap((p) => receiver.receive(p.ssrc, p.timestamp, p.payload, 0) ?? []);
    expect(heard).toEqual(['1', '#']);
    // Each key: 7 packets on one timestamp, the first marked, the last three ending it.
    const first = events.filter((p) => p.timestamp === events[0].timestamp);
    expect(first).toHaveLength(7);
    expect(first.map((p) => p.marker)).toEqual([true, false, false, false, false, false, false]);
    expect(first.map((p) => (p.payload[1] & 0x80) !== 0)).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(first.map((p) => (p.payload[2] << 8) | p.payload[3])).toEqual([160, 320, 480, 640, 800, 800, 800]);
    // The second key starts 100 ms of gap and 500 ms of pause after the first ended.
    const second = events.find((p) => p.timestamp !== events[0].timestamp);
    expect(second?.tick).toBe(7 + 5 + 25);
    // The call's audio goes on between the keys, with its timestamp 160 a tick.
    const audio = all.filter((p) => p.payloadType === 0);
    expect(audio.length).toBe(60 - 14);
    expect(second?.timestamp).toBe((all[0].timestamp + 37 * 160) >>> 0);
  });

  it('sends in-band tones when the far end takes no telephone-event', () => {
    const { media, packets } = session();
    media.sendDigits('5');
    for (let i = 0; i < 12; i++) media.tick();
    const all = packets();
    expect(all.every((p) => p.payloadType === 0)).toBe(true);
    const pcm = alawmulaw.mulaw.decode(new Uint8Array(Buffer.concat(all.slice(0, 5).map((p) => p.payload))));
    // Key 5: 770 Hz and 1336 Hz, against 1209 Hz (another column) sent by no one.
    expect(holds(pcm, 770, 1209)).toBe(true);
    expect(holds(pcm, 1336, 1209)).toBe(true);
    const after = alawmulaw.mulaw.decode(new Uint8Array(Buffer.concat(all.slice(6).map((p) => p.payload))));
    expect(after.every((s) => Math.abs(s) < 10)).toBe(true);
  });
});
