/** Shared pieces of the SIP call tests: an RTP sink standing in for the caller's ear. */
import dgram from 'node:dgram';
import { readRtp, writeRtp } from '../../src/telephony/media/rtp.js';

export interface RtpSink {
  port: number;
  /** Payload bytes received, in arrival order. */
  payloads(): Buffer;
  /** Arrival times (ms, performance.now()) of the packets. */
  arrivals(): number[];
  payloadTypes(): Set<number>;
  /** SSRCs seen, and sequence numbers that did not follow the previous one of their stream. */
  ssrcs(): Set<number>;
  sequenceJumps(): number;
  close(): void;
}

export async function rtpSink(): Promise<RtpSink> {
  const socket = dgram.createSocket('udp4');
  const chunks: Buffer[] = [];
  const times: number[] = [];
  const types = new Set<number>();
  const ssrcs = new Set<number>();
  let jumps = 0;
  let lastSequence: number | undefined;
  const answered = new Set<string>();
  socket.on('message', (packet, from) => {
    const rtp = readRtp(packet);
    if (!rtp) return;
    // As a phone's RTP would, a comfort-noise packet from this port shows the sender that the
    // address is ours (symmetric RTP): it sends its audio on past its first few packets.
    const sender = `${from.address}:${from.port}`;
    if (!answered.has(sender)) {
      answered.add(sender);
      const cn = writeRtp(
        { payloadType: 13, marker: false, sequence: 1, timestamp: 0, ssrc: 0x5157 },
        Uint8Array.of(60),
      );
      socket.send(cn, from.port, from.address);
    }
    ssrcs.add(rtp.ssrc);
    if (lastSequence !== undefined && rtp.sequence !== ((lastSequence + 1) & 0xffff)) jumps++;
    lastSequence = rtp.sequence;
    times.push(performance.now());
    types.add(rtp.payloadType);
    chunks.push(Buffer.from(rtp.payload));
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    port: socket.address().port,
    payloads: () => Buffer.concat(chunks),
    arrivals: () => times,
    payloadTypes: () => types,
    ssrcs: () => ssrcs,
    sequenceJumps: () => jumps,
    close: () => socket.close(),
  };
}

/** Mean absolute value of samples: 0 for digital silence. */
export function level(pcm: Int16Array): number {
  let sum = 0;
  for (const s of pcm) sum += Math.abs(s);
  return pcm.length === 0 ? 0 : sum / pcm.length;
}

/** The RTP payloads of a pcap file (Ethernet, IPv4, UDP), in order. */
export function pcapPayloads(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let offset = 24;
  while (offset + 16 <= bytes.length) {
    const length = bytes.readUInt32LE(offset + 8);
    const packet = bytes.subarray(offset + 16, offset + 16 + length);
    offset += 16 + length;
    const rtp = readRtp(packet.subarray(42));
    if (rtp) out.push(Buffer.from(rtp.payload));
  }
  return out;
}
