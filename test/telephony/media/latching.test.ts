/**
 * Symmetric RTP (RFC 4961) with latching (RFC 7362), strictly: a session takes RTP only from the
 * source it latched onto, sends where that source is when it is another host (NAT), sends a
 * third party named in the SDP no more than a few packets, and reports a far end gone quiet.
 */
import type dgram from 'node:dgram';
import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { Histogram } from '../../../src/telephony/media/histogram.js';
import { type PacketSource, UNPROVEN_PACKETS } from '../../../src/telephony/media/latch.js';
import type { MediaEvent, MediaPath } from '../../../src/telephony/media/protocol.js';
import { readRtp, writeRtp } from '../../../src/telephony/media/rtp.js';
import { MediaSession } from '../../../src/telephony/media/session.js';

const SDP = { address: '192.168.1.5', port: 4000 };

function session(path: Partial<MediaPath> = {}) {
  let deliver: (packet: Buffer, from: PacketSource) => void = () => {};
  const sent: string[] = [];
  const packets: Buffer[] = [];
  const socket = {
    on: (_event: string, fn: typeof deliver) => {
      deliver = fn;
    },
    send: (packet: Buffer, port: number, address: string) => {
      sent.push(`${address}:${port}`);
      packets.push(packet);
    },
    close: () => {},
  } as unknown as dgram.Socket;
  const totals = { sent: 0, received: 0, lost: 0, rejected: 0, interArrival: new Histogram() };
  const events: MediaEvent[] = [];
  const media = new MediaSession(
    {
      type: 'open',
      id: 1,
      codec: 'PCMU',
      payloadType: 0,
      dtmfPayloadType: 101,
      remote: SDP,
      send: true,
      receive: true,
      ...path,
    },
    socket,
    (event) => events.push(event),
    totals,
  );
  let sequence = 1;
  /** A packet of `payloadType` (0 audio of `value`, 101 the key 5, 13 comfort noise) from `from`. */
  const packet = (from: PacketSource, payloadType = 0, value = 1000) => {
    const payload =
      payloadType === 0
        ? alawmulaw.mulaw.encode(new Int16Array(160).fill(value))
        : payloadType === 101
          ? Uint8Array.of(5, 0x80 | 10, 0, 160)
          : Uint8Array.of(60);
    deliver(
      writeRtp(
        { payloadType, marker: false, sequence: sequence++, timestamp: sequence * 160, ssrc: 3 },
        payload,
      ),
      from,
    );
  };
  return { media, sent, packets, events, totals, packet };
}

describe('RTP latching', () => {
  it('sends the SDP address at most a few packets before any RTP comes from the far end', () => {
    const { media, sent } = session();
    for (let i = 0; i < 100; i++) media.tick();
    expect(sent).toEqual(Array(UNPROVEN_PACKETS).fill('192.168.1.5:4000'));
  });

  it('latches onto the first RTP source, sends there when it is another host (NAT), and drops a stranger', () => {
    const { media, sent, events, totals, packet } = session();
    const phone = { address: '203.0.113.7', port: 61000 };
    packet(phone);
    media.tick();
    expect(sent.at(-1)).toBe('203.0.113.7:61000');
    expect(media.latched).toEqual(phone);
    packet({ address: '198.51.100.9', port: 4000 }, 101);
    packet({ address: '203.0.113.7', port: 61001 }, 0);
    expect(totals.rejected).toBe(2);
    expect(events.filter((e) => e.type === 'digit')).toEqual([]);
    packet(phone, 101);
    expect(events.filter((e) => e.type === 'digit')).toMatchObject([{ key: '5' }]);
    for (let i = 0; i < 200; i++) media.tick();
    expect(sent.filter((to) => to !== '203.0.113.7:61000')).toEqual([]);
  });

  it("keeps the SDP's port when the RTP comes from the SDP's host (a listener beside the sender)", () => {
    const { media, sent, packet } = session({ remote: { address: '127.0.0.1', port: 9 } });
    packet({ address: '127.0.0.1', port: 6000 });
    for (let i = 0; i < 50; i++) media.tick();
    expect(new Set(sent)).toEqual(new Set(['127.0.0.1:9']));
    expect(sent).toHaveLength(50);
  });

  it('lets audio from the same host take over a source of comfort noise only, never one from elsewhere', () => {
    const { media, totals, packet } = session({ remote: { address: '127.0.0.1', port: 9 } });
    packet({ address: '127.0.0.1', port: 9 }, 13);
    packet({ address: '10.0.0.66', port: 9 }, 0);
    expect(media.latched).toEqual({ address: '127.0.0.1', port: 9 });
    expect(totals.rejected).toBe(1);
    packet({ address: '127.0.0.1', port: 6000 }, 0);
    expect(media.latched).toEqual({ address: '127.0.0.1', port: 6000 });
    // Once audio came from the latched source, nobody takes over.
    packet({ address: '127.0.0.1', port: 6002 }, 0);
    expect(media.latched).toEqual({ address: '127.0.0.1', port: 6000 });
  });

  it('latches anew when a re-offer moves the far end, and not when it only changes direction', () => {
    const { media, sent, packet } = session();
    packet({ address: '203.0.113.7', port: 61000 });
    media.update({ remote: SDP, send: false, receive: true });
    expect(media.latched).toBeDefined();
    media.update({ remote: { address: '192.168.1.6', port: 4002 }, send: true, receive: true });
    expect(media.latched).toBeUndefined();
    sent.length = 0;
    for (let i = 0; i < 20; i++) media.tick();
    expect(sent).toEqual(Array(UNPROVEN_PACKETS).fill('192.168.1.6:4002'));
  });
});

describe('RTP timeout', () => {
  it('reports once that no RTP came for the path timeout; a packet starts the count again', () => {
    const { media, events, packet } = session({ rtpTimeoutMs: 1000 });
    const timeouts = () => events.filter((e) => e.type === 'rtp-timeout');
    for (let i = 0; i < 49; i++) media.tick();
    packet({ address: '203.0.113.7', port: 61000 });
    for (let i = 0; i < 49; i++) media.tick();
    expect(timeouts()).toEqual([]);
    media.tick();
    expect(timeouts()).toEqual([{ type: 'rtp-timeout', id: 1, seconds: 1 }]);
    for (let i = 0; i < 200; i++) media.tick();
    expect(timeouts()).toHaveLength(1);
  });

  it('never reports without a timeout, and counts afresh from a new path (hold, resume)', () => {
    const off = session();
    for (let i = 0; i < 5000; i++) off.media.tick();
    expect(off.events.filter((e) => e.type === 'rtp-timeout')).toEqual([]);
    const held = session({ rtpTimeoutMs: 1000 });
    for (let i = 0; i < 40; i++) held.media.tick();
    held.media.update({ remote: SDP, send: true, receive: false, rtpTimeoutMs: 3_600_000 });
    for (let i = 0; i < 1000; i++) held.media.tick();
    expect(held.events.filter((e) => e.type === 'rtp-timeout')).toEqual([]);
  });
});

describe('packet time', () => {
  it('sends 40 ms packets every other tick and 30 ms ones twice in three, their timestamps the samples they hold', () => {
    for (const [ptime, expected] of [
      [40, [320, 320, 320]],
      [30, [240, 240, 240, 240]],
    ] as const) {
      const { media, packets, packet } = session({ remote: { address: '127.0.0.1', port: 9 } });
      media.update(
        { remote: { address: '127.0.0.1', port: 9 }, send: true, receive: true },
        { codec: 'PCMU', payloadType: 0, ptime },
      );
      packet({ address: '127.0.0.1', port: 9 });
      for (let i = 0; i < 6; i++) media.tick();
      const read = packets.map((p) => readRtp(p)).filter((p) => p !== undefined);
      expect(read.map((p) => p.payload.length)).toEqual(expected);
      const steps = read.slice(1).map((p, i) => (p.timestamp - read[i].timestamp) >>> 0);
      expect(steps.every((step) => step === ptime * 8)).toBe(true);
      expect(read.slice(1).every((p, i) => p.sequence === ((read[i].sequence + 1) & 0xffff))).toBe(true);
    }
  });
});
