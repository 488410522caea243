/** RTP packets (RFC 3550): the fixed 12-byte header, no CSRCs or extensions written. */

export const RTP_HEADER_BYTES = 12;

export interface RtpHeader {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
}

/** Writes a packet: header then payload. */
export function writeRtp(header: RtpHeader, payload: Uint8Array): Buffer {
  const packet = Buffer.allocUnsafe(RTP_HEADER_BYTES + payload.length);
  packet[0] = 0x80;
  packet[1] = (header.marker ? 0x80 : 0) | (header.payloadType & 0x7f);
  packet.writeUInt16BE(header.sequence & 0xffff, 2);
  packet.writeUInt32BE(header.timestamp >>> 0, 4);
  packet.writeUInt32BE(header.ssrc >>> 0, 8);
  packet.set(payload, RTP_HEADER_BYTES);
  return packet;
}

/** A received packet's header and payload; undefined when it is no RTP version 2 packet. */
export function readRtp(packet: Buffer): (RtpHeader & { payload: Buffer }) | undefined {
  if (packet.length < RTP_HEADER_BYTES || packet[0] >> 6 !== 2) return undefined;
  const csrcs = packet[0] & 0x0f;
  let offset = RTP_HEADER_BYTES + csrcs * 4;
  if (packet[0] & 0x10) {
    if (packet.length < offset + 4) return undefined;
    offset += 4 + packet.readUInt16BE(offset + 2) * 4;
  }
  let end = packet.length;
  if (packet[0] & 0x20) end -= packet[end - 1];
  if (offset > end) return undefined;
  return {
    payloadType: packet[1] & 0x7f,
    marker: (packet[1] & 0x80) !== 0,
    sequence: packet.readUInt16BE(2),
    timestamp: packet.readUInt32BE(4),
    ssrc: packet.readUInt32BE(8),
    payload: packet.subarray(offset, end),
  };
}
