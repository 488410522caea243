/**
 * Known tones for the SIP audio tests: a tone as PCM or WAV, a pcap of it for SIPp's
 * `play_pcap_audio`, and which tone dominates each stretch of received audio (Goertzel).
 */
import { writeFileSync } from 'node:fs';
import alawmulaw from 'alawmulaw';
import { encodeWav } from '../../src/telephony/audio/decode.js';
import { writeRtp } from '../../src/telephony/media/rtp.js';

const RATE = 8000;

/** `seconds` of a sine at `hz`, 8 kHz 16-bit, at half scale unless `amplitude` says. */
export function tone(hz: number, seconds: number, amplitude = 16000): Int16Array {
  const out = new Int16Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++)
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE));
  return out;
}

/** A WAV of the tone (for a `Play`). */
export const toneWav = (hz: number, seconds: number): Uint8Array => encodeWav(tone(hz, seconds));

/** Writes `tonePcap`'s A-law capture to `file`. */
export function writeTonePcap(file: string, hz: number, seconds: number): void {
  writeFileSync(file, tonePcap(hz, seconds, { codec: 'PCMA' }));
}

/** One RTP packet of a capture. */
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
 * A pcap (Ethernet, IPv4, UDP) of RTP packets, as SIPp's `play_pcap_audio` reads it: it sends
 * each packet's UDP payload to the answer's media address at its capture time.
 */
export function rtpPcap(packets: readonly CapturedPacket[]): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(24);
  header.writeUInt32LE(0xa1b2c3d4, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeUInt32LE(65535, 16);
  header.writeUInt32LE(1, 20); // Ethernet
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
    const micros = Math.round(p.at * 1e6);
    record.writeUInt32LE(Math.floor(micros / 1e6), 0);
    record.writeUInt32LE(micros % 1e6, 4);
    record.writeUInt32LE(frame.length, 8);
    record.writeUInt32LE(frame.length, 12);
    parts.push(record, frame);
  }
  return Buffer.concat(parts);
}

/** A capture of `pcm` as 20 ms packets (PCMU unless `codec` says), the first at `start` s. */
export function pcmPcap(
  pcm: Int16Array,
  { codec = 'PCMU', start = 0 }: { codec?: 'PCMU' | 'PCMA'; start?: number } = {},
): Buffer {
  const packets: CapturedPacket[] = [];
  for (let i = 0; (i + 1) * 160 <= pcm.length; i++) {
    const samples = pcm.subarray(i * 160, i * 160 + 160);
    packets.push({
      payloadType: codec === 'PCMA' ? 8 : 0,
      marker: i === 0,
      sequence: 1000 + i,
      timestamp: 160 * i,
      payload: codec === 'PCMA' ? alawmulaw.alaw.encode(samples) : alawmulaw.mulaw.encode(samples),
      at: start + i * 0.02,
    });
  }
  return rtpPcap(packets);
}

/** A capture of the tone, one packet per 20 ms: what a SIPp caller sends as its voice. */
export function tonePcap(
  hz: number,
  seconds: number,
  { codec = 'PCMU', amplitude = 16000 }: { codec?: 'PCMU' | 'PCMA'; amplitude?: number } = {},
): Buffer {
  return pcmPcap(tone(hz, seconds, amplitude), { codec });
}

/** A capture of RFC 4733 key presses (payload type `pt`), one every 300 ms. */
export function digitsPcap(keys: string, pt = 101): Buffer {
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
  return rtpPcap(packets);
}

/** The 16-bit samples of a WAV written by the engine (44-byte header). */
export function wavSamples(wav: Uint8Array): Int16Array {
  const copy = Uint8Array.from(wav.subarray(44));
  return new Int16Array(copy.buffer, 0, copy.length >> 1);
}

/** Power of `hz` in the samples (Goertzel), per sample squared: comparable across lengths. */
export function goertzel(pcm: Int16Array, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (const x of pcm) {
    const s0 = x + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const n = Math.max(1, pcm.length);
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / (n * n);
}

/**
 * For each 100 ms of the audio, the tone among `tones` that holds most of its power, or
 * undefined (silence, or no tone clearly above the others).
 */
export function dominantTones(pcm: Int16Array, tones: readonly number[]): Array<number | undefined> {
  const block = RATE / 10;
  const out: Array<number | undefined> = [];
  for (let at = 0; at + block <= pcm.length; at += block) {
    const slice = pcm.subarray(at, at + block);
    const powers = tones.map((hz) => goertzel(slice, hz));
    const best = Math.max(...powers);
    const total = powers.reduce((a, b) => a + b, 0);
    // A tone at a tenth of full scale or more, holding 90 % of the power of the tones looked for.
    out.push(best > 1e4 && best > 0.9 * total ? tones[powers.indexOf(best)] : undefined);
  }
  return out;
}

/** True when `hz` stands well above a frequency no one sent (the noise floor of a mix). */
export function holds(pcm: Int16Array, hz: number, quiet = 1750): boolean {
  return goertzel(pcm, hz) > 100 * Math.max(goertzel(pcm, quiet), 1);
}
