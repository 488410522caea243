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

/**
 * A pcap (Ethernet, IPv4, UDP) of the tone as RTP (PCMU unless `codec` says), one packet per
 * 20 ms: SIPp replays it to the far end's media address with the capture's timing.
 */
export function tonePcap(
  hz: number,
  seconds: number,
  { codec = 'PCMU', amplitude = 16000 }: { codec?: 'PCMU' | 'PCMA'; amplitude?: number } = {},
): Buffer {
  const pcm = tone(hz, seconds, amplitude);
  const payload = codec === 'PCMA' ? alawmulaw.alaw.encode(pcm) : alawmulaw.mulaw.encode(pcm);
  const payloadType = codec === 'PCMA' ? 8 : 0;
  const frames = Math.floor(payload.length / 160);
  const parts: Buffer[] = [];
  const global = Buffer.alloc(24);
  global.writeUInt32LE(0xa1b2c3d4, 0);
  global.writeUInt16LE(2, 4);
  global.writeUInt16LE(4, 6);
  global.writeUInt32LE(65535, 16);
  global.writeUInt32LE(1, 20); // Ethernet
  parts.push(global);
  for (let n = 0; n < frames; n++) {
    const rtp = writeRtp(
      { payloadType, sequence: n, timestamp: n * 160, ssrc: 0x1234, marker: n === 0 },
      payload.subarray(n * 160, (n + 1) * 160),
    );
    const udpLength = 8 + rtp.length;
    const ipLength = 20 + udpLength;
    const frame = Buffer.alloc(14 + ipLength);
    frame.writeUInt16BE(0x0800, 12);
    frame.writeUInt8(0x45, 14);
    frame.writeUInt16BE(ipLength, 16);
    frame.writeUInt8(64, 22);
    frame.writeUInt8(17, 23);
    frame.writeUInt32BE(0x7f000001, 26);
    frame.writeUInt32BE(0x7f000001, 30);
    frame.writeUInt16BE(4000, 34);
    frame.writeUInt16BE(4002, 36);
    frame.writeUInt16BE(udpLength, 38);
    rtp.copy(frame, 42);
    const header = Buffer.alloc(16);
    const micros = n * 20_000;
    header.writeUInt32LE(Math.floor(micros / 1e6), 0);
    header.writeUInt32LE(micros % 1e6, 4);
    header.writeUInt32LE(frame.length, 8);
    header.writeUInt32LE(frame.length, 12);
    parts.push(header, frame);
  }
  return Buffer.concat(parts);
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
