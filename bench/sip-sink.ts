/**
 * The callers' ears in `npm run bench -- sip`, in a process of its own so its CPU is not the
 * engine's: one UDP socket every call's SDP points at. Per stream (SSRC) it measures the gaps
 * between packets and counts missing sequence numbers; `report` answers the figures and resets.
 */
import dgram from 'node:dgram';

const socket = dgram.createSocket('udp4');
const streams = new Map<number, { at: number; seq: number }>();
const gaps = new Uint32Array(20_001);
let packets = 0;
let lost = 0;

socket.on('message', (packet) => {
  if (packet.length < 12) return;
  const now = performance.now();
  const ssrc = packet.readUInt32BE(8);
  const seq = packet.readUInt16BE(2);
  packets++;
  const last = streams.get(ssrc);
  if (last) {
    gaps[Math.min(gaps.length - 1, Math.round((now - last.at) * 10))]++;
    const step = (seq - last.seq + 0x10000) & 0xffff;
    if (step > 1 && step < 0x8000) lost += step - 1;
    last.at = now;
    if (step < 0x8000) last.seq = seq;
  } else streams.set(ssrc, { at: now, seq });
});

function quantile(q: number): number {
  const total = gaps.reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  let seen = 0;
  for (let i = 0; i < gaps.length; i++) {
    seen += gaps[i];
    if (seen >= Math.ceil(q * total)) return i / 10;
  }
  return 0;
}

process.on('message', (message: string) => {
  if (message === 'report') {
    process.send?.({ packets, lost, streams: streams.size, p999: quantile(0.999), p99: quantile(0.99) });
    streams.clear();
    gaps.fill(0);
    packets = 0;
    lost = 0;
  } else if (message === 'stop') {
    socket.close();
    process.disconnect?.();
  }
});

socket.bind(0, '127.0.0.1', () => {
  // A deep receive buffer: a stall of this process must not count as packets the engine lost.
  try {
    socket.setRecvBufferSize(16 * 1024 * 1024);
  } catch {
    // Capped by net.core.rmem_max.
  }
  process.send?.({ port: socket.address().port, buffer: socket.getRecvBufferSize() });
});
