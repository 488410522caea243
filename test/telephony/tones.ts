/** Tones for the SIP audio tests: a pcap SIPp plays as a caller's voice, and a Goertzel filter to hear them. */
import alawmulaw from 'alawmulaw';

/**
 * A pcap (Ethernet, IPv4, UDP) of RTP packets, PCMU, 20 ms apart, holding `seconds` of a sine
 * at `frequency` Hz: what SIPp's `play_pcap_audio` sends to the far end's media address.
 */
export function tonePcap(frequency: number, seconds: number, amplitude = 6000): Buffer {
  const frames = Math.round(seconds * 50);
  const rtpBytes = 12 + 160;
  const packetBytes = 14 + 20 + 8 + rtpBytes;
  const out = Buffer.alloc(24 + frames * (16 + packetBytes));
  out.writeUInt32LE(0xa1b2c3d4, 0);
  out.writeUInt16LE(2, 4);
  out.writeUInt16LE(4, 6);
  out.writeUInt32LE(65535, 16);
  out.writeUInt32LE(1, 20); // Ethernet
  const ssrc = 0x1000 + frequency;
  for (let f = 0; f < frames; f++) {
    let at = 24 + f * (16 + packetBytes);
    const ms = f * 20;
    out.writeUInt32LE(Math.floor(ms / 1000), at);
    out.writeUInt32LE((ms % 1000) * 1000, at + 4);
    out.writeUInt32LE(packetBytes, at + 8);
    out.writeUInt32LE(packetBytes, at + 12);
    at += 16;
    out.writeUInt16BE(0x0800, at + 12);
    at += 14;
    const ip = at;
    out[ip] = 0x45;
    out.writeUInt16BE(20 + 8 + rtpBytes, ip + 2);
    out[ip + 8] = 64;
    out[ip + 9] = 17;
    out.set([127, 0, 0, 1, 127, 0, 0, 1], ip + 12);
    let sum = 0;
    for (let i = 0; i < 20; i += 2) sum += out.readUInt16BE(ip + i);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
    out.writeUInt16BE(~sum & 0xffff, ip + 10);
    at += 20;
    out.writeUInt16BE(6000, at);
    out.writeUInt16BE(6002, at + 2);
    out.writeUInt16BE(8 + rtpBytes, at + 4);
    at += 8;
    out[at] = 0x80;
    out[at + 1] = 0;
    out.writeUInt16BE(f & 0xffff, at + 2);
    out.writeUInt32BE(f * 160, at + 4);
    out.writeUInt32BE(ssrc, at + 8);
    const pcm = Int16Array.from({ length: 160 }, (_, i) =>
      Math.round(amplitude * Math.sin((2 * Math.PI * frequency * (f * 160 + i)) / 8000)),
    );
    out.set(alawmulaw.mulaw.encode(pcm), at + 12);
  }
  return out;
}

/** Power of `frequency` in 8 kHz PCM (Goertzel), per sample squared: comparable across lengths. */
export function tonePower(pcm: Int16Array, frequency: number): number {
  const k = 2 * Math.cos((2 * Math.PI * frequency) / 8000);
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
