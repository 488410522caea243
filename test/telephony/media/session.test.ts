import type dgram from 'node:dgram';
import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { Histogram } from '../../../src/telephony/media/histogram.js';
import type { Codec, MediaEvent } from '../../../src/telephony/media/protocol.js';
import { readRtp, writeRtp } from '../../../src/telephony/media/rtp.js';
import { MediaSession } from '../../../src/telephony/media/session.js';
import { level } from '../support.js';
import { holds } from '../tones.js';

/** A session over a fake socket: packets handed to `receive`, the ones it sends kept in `sent`. */
function session(id: number, codec: Codec) {
  let deliver: (packet: Buffer) => void = () => {};
  const sent: Buffer[] = [];
  const socket = {
    // Every packet comes from the far end's SDP address (where the session sends).
    on: (_event: string, fn: (packet: Buffer, from: { address: string; port: number }) => void) => {
      deliver = (packet) => fn(packet, { address: '127.0.0.1', port: 9 });
    },
    send: (packet: Buffer) => {
      sent.push(packet);
    },
    close: () => {},
  } as unknown as dgram.Socket;
  const totals = { sent: 0, received: 0, lost: 0, rejected: 0, interArrival: new Histogram() };
  const events: MediaEvent[] = [];
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
    totals,
  );
  return { media, sent, events, receive: (packet: Buffer) => deliver(packet) };
}

const tone = Int16Array.from({ length: 160 }, (_, i) =>
  Math.round(8000 * Math.sin((2 * Math.PI * 400 * i) / 8000)),
);

describe('media session bridges', () => {
  it('relays what the linked session receives in its own stream, transcoding PCMU to PCMA, silence before and after', () => {
    const a = session(1, 'PCMU');
    const b = session(2, 'PCMA');
    b.media.tick();
    a.media.link(b.media);
    b.media.link(a.media);
    for (let i = 0; i < 3; i++) {
      a.receive(
        writeRtp(
          { payloadType: 0, marker: false, sequence: 100 + i, timestamp: 5000 + 160 * i, ssrc: 42 },
          alawmulaw.mulaw.encode(tone),
        ),
      );
      b.media.tick();
    }
    b.media.link(undefined);
    a.media.link(undefined);
    a.receive(
      writeRtp(
        { payloadType: 0, marker: false, sequence: 103, timestamp: 5480, ssrc: 42 },
        alawmulaw.mulaw.encode(tone),
      ),
    );
    b.media.tick();
    const packets = b.sent.map((p) => readRtp(p));
    expect(packets).toHaveLength(5);
    // One stream: B's SSRC, its sequence one after the other, timestamps 160 apart.
    expect(new Set(packets.map((p) => p?.ssrc)).size).toBe(1);
    expect(packets[0]?.ssrc).not.toBe(42);
    for (let i = 1; i < packets.length; i++) {
      expect(packets[i]?.sequence).toBe(((packets[i - 1]?.sequence ?? 0) + 1) & 0xffff);
      expect(packets[i]?.timestamp).toBe(((packets[i - 1]?.timestamp ?? 0) + 160) >>> 0);
    }
    const heard = packets.map((p) => level(alawmulaw.alaw.decode(new Uint8Array(p?.payload ?? []))));
    expect(packets.every((p) => p?.payloadType === 8)).toBe(true);
    expect(heard[0]).toBeLessThan(20);
    for (const loud of heard.slice(1, 4)) expect(loud).toBeGreaterThan(4000);
    expect(heard[4]).toBeLessThan(20);
  });

  it('keeps at most 60 ms of relayed audio, and closing one side unlinks the other', () => {
    const a = session(1, 'PCMU');
    const b = session(2, 'PCMU');
    a.media.link(b.media);
    b.media.link(a.media);
    for (let i = 0; i < 10; i++)
      a.receive(
        writeRtp(
          { payloadType: 0, marker: false, sequence: i, timestamp: 160 * i, ssrc: 7 },
          alawmulaw.mulaw.encode(tone),
        ),
      );
    for (let i = 0; i < 5; i++) b.media.tick();
    const loud = b.sent.map(
      (p) => level(alawmulaw.mulaw.decode(new Uint8Array(readRtp(p)?.payload ?? []))) > 4000,
    );
    expect(loud).toEqual([true, true, true, false, false]);
    a.media.close();
    expect(b.media.peer).toBeUndefined();
  });

  it('a held session (receiving nothing) is out of the bridge both ways: each side hears hold music, then silence once resumed', () => {
    const a = session(1, 'PCMU');
    const b = session(2, 'PCMU');
    a.media.link(b.media);
    b.media.link(a.media);
    // Hold on b: we still send to it, but take nothing of it, and relay nothing to it.
    const held = { remote: { address: '127.0.0.1', port: 9 }, send: true, receive: false };
    b.media.update(held);
    for (let i = 0; i < 10; i++) {
      a.receive(
        writeRtp(
          { payloadType: 0, marker: false, sequence: i, timestamp: i * 160, ssrc: 7 },
          alawmulaw.mulaw.encode(tone),
        ),
      );
      b.receive(
        writeRtp(
          { payloadType: 0, marker: false, sequence: i, timestamp: i * 160, ssrc: 8 },
          alawmulaw.mulaw.encode(tone),
        ),
      );
      a.media.tick();
      b.media.tick();
    }
    const heard = (sent: Buffer[]) =>
      alawmulaw.mulaw.decode(
        new Uint8Array(Buffer.concat(sent.map((p) => readRtp(p)?.payload ?? Buffer.alloc(0)))),
      );
    for (const sent of [a.sent, b.sent]) {
      const pcm = heard(sent);
      // The music's first note (523 Hz), not the other side's 400 Hz tone.
      expect(holds(pcm, 523, 400)).toBe(true);
    }
    b.media.update({ ...held, receive: true });
    a.media.tick();
    b.media.tick();
    for (const sent of [a.sent, b.sent]) expect(level(heard(sent.slice(-1)))).toBeLessThan(20);
  });
});
