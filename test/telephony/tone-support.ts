/** Tones for the bridge tests: made, found again (Goertzel), and written as RTP captures SIPp plays. */
import { writeFileSync } from 'node:fs';
import alawmulaw from 'alawmulaw';
import { writeRtp } from '../../src/telephony/media/rtp.js';

/** `seconds` of a sine at `hz`, 8 kHz, amplitude `amplitude`. */
export function sine(hz: number, seconds: number, amplitude = 6000): Int16Array {
  return Int16Array.from({ length: Math.round(seconds * 8000) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / 8000)),
  );
}

/** Power of `hz` in `pcm` (Goertzel), normalised by length so windows compare. */
export function power(pcm: Int16Array, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / 8000);
  let s1 = 0;
  let s2 = 0;
  for (const x of pcm) {
    const s0 = x + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / (pcm.length * pcm.length);
}

/** True when `hz` stands well above a frequency no one sent (the noise floor of the mix). */
export function holds(pcm: Int16Array, hz: number, quiet = 1750): boolean {
  return power(pcm, hz) > 100 * Math.max(power(pcm, quiet), 1);
}

/** The 16-bit samples of a WAV written by the engine (44-byte header). */
export function wavSamples(wav: Uint8Array): Int16Array {
  const copy = Uint8Array.from(wav.subarray(44));
  return new Int16Array(copy.buffer, 0, copy.length >> 1);
}

export interface CapturedPacket {
  payloadType: number;
  marker?: boolean;
  sequence: number;
  timestamp: number;
  payload: Uint8Array;
  /** Seconds from the start of the capture. */
  at: number;
}

/**
 * Writes a pcap (Ethernet, IPv4, UDP) of RTP packets, as SIPp's `play_pcap_audio` reads it: it
 * sends each packet's UDP payload to the answer's media address at its capture time.
 */
export function writeRtpPcap(file: string, packets: CapturedPacket[]): void {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(24);
  header.writeUInt32LE(0xa1b2c3d4, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeUInt32LE(65535, 16);
  header.writeUInt32LE(1, 20);
  parts.push(header);
  for (const p of packets) {
    const rtp = writeRtp(
      {
        payloadType: p.payloadType,
        marker: p.marker ?? false,
        sequence: p.sequence,
        timestamp: p.timestamp,
        ssrc: 0x1234,
      },
      p.payload,
    );
    const udpLength = 8 + rtp.length;
    const frame = Buffer.alloc(14 + 20 + udpLength);
    frame.writeUInt16BE(0x0800, 12);
    frame[14] = 0x45;
    frame.writeUInt16BE(20 + udpLength, 16);
    frame[22] = 64;
    frame[23] = 17;
    frame.set([127, 0, 0, 1], 26);
    frame.set([127, 0, 0, 1], 30);
    frame.writeUInt16BE(6000, 34);
    frame.writeUInt16BE(6002, 36);
    frame.writeUInt16BE(udpLength, 38);
    frame.set(rtp, 42);
    const record = Buffer.alloc(16);
    record.writeUInt32LE(Math.floor(p.at), 0);
    record.writeUInt32LE(Math.round((p.at % 1) * 1e6), 4);
    record.writeUInt32LE(frame.length, 8);
    record.writeUInt32LE(frame.length, 12);
    parts.push(record, frame);
  }
  writeFileSync(file, Buffer.concat(parts));
}

/** A capture of `pcm` as 20 ms PCMU packets. */
export function tonePcap(file: string, pcm: Int16Array, start = 0): void {
  const packets: CapturedPacket[] = [];
  for (let i = 0; i * 160 < pcm.length; i++) {
    packets.push({
      payloadType: 0,
      sequence: 1000 + i,
      timestamp: 160 * i,
      payload: alawmulaw.mulaw.encode(pcm.subarray(i * 160, i * 160 + 160)),
      at: start + i * 0.02,
    });
  }
  writeRtpPcap(file, packets);
}

/** A capture of RFC 4733 key presses (payload type `pt`), one every 300 ms. */
export function digitsPcap(file: string, keys: string, pt = 101): void {
  const packets: CapturedPacket[] = [];
  let sequence = 500;
  [...keys].forEach((key, n) => {
    const event = '0123456789*#'.indexOf(key);
    const timestamp = 8000 + n * 2400;
    for (let i = 0; i < 8; i++) {
      const end = i >= 5;
      const duration = Math.min(i + 1, 6) * 160;
      packets.push({
        payloadType: pt,
        marker: i === 0,
        sequence: sequence++,
        timestamp,
        payload: Uint8Array.of(event, (end ? 0x80 : 0) | 10, duration >> 8, duration & 0xff),
        at: n * 0.3 + i * 0.02,
      });
    }
  });
  writeRtpPcap(file, packets);
}
