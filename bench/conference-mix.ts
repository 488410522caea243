/**
 * Conference mixing in-process, over the media worker's own classes: N sessions (fake sockets:
 * sends are dropped, each tick hands every session one received 20 ms PCMU packet) in one
 * `ConferenceRoom`, ticked as the pacing loop does (room, then sessions) as fast as they go.
 * The floor is the same sessions, receiving and sending the same packets, in no room: what the
 * worker pays for those calls anyway. Prints, for each size, the room's mix per tick in CPU time
 * of the process (so a machine busy with other work does not count its waits for a core) and
 * whole ticks in wall time beside the floor, then how many members one core mixes within the
 * 20 ms tick.
 */
import type dgram from 'node:dgram';
import { loadavg } from 'node:os';
import alawmulaw from 'alawmulaw';
import { Histogram } from '../src/telephony/media/histogram.js';
import { ConferenceRoom } from '../src/telephony/media/room.js';
import { writeRtp } from '../src/telephony/media/rtp.js';
import { MediaSession } from '../src/telephony/media/session.js';

const TICKS = Number(process.env.RCML_BENCH_MIX_TICKS ?? 1500);
const WARMUP = 200;

interface Figures {
  p50: number;
  p99: number;
  max: number;
}

function quantiles(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

/**
 * N sessions, each fed a packet of its own tone per tick; `mixed` puts them in one room. Gives
 * the work of whole ticks (receiving, mixing, sending) and of the room's mix alone.
 */
function measure(members: number, mixed: boolean): { tick: Figures; mix: Figures } {
  const feeds: Array<(packet: Buffer) => void> = [];
  const totals = { sent: 0, received: 0, lost: 0, rejected: 0, interArrival: new Histogram() };
  const sessions = Array.from({ length: members }, (_, id) => {
    const socket = {
      on: (_event: string, fn: (packet: Buffer, from: { address: string; port: number }) => void) =>
        feeds.push((packet) => fn(packet, { address: '127.0.0.1', port: 9 })),
      send: () => {},
      close: () => {},
    } as unknown as dgram.Socket;
    return new MediaSession(
      {
        type: 'open',
        id,
        codec: 'PCMU',
        payloadType: 0,
        remote: { address: '127.0.0.1', port: 9 },
        send: true,
        receive: true,
      },
      socket,
      () => {},
      totals,
    );
  });
  const room = new ConferenceRoom(1, () => {});
  if (mixed) for (const s of sessions) room.join(s, false);
  const payloads = sessions.map((_, i) =>
    alawmulaw.mulaw.encode(
      Int16Array.from({ length: 160 }, (_, n) =>
        Math.round(3000 * Math.sin((2 * Math.PI * (300 + 7 * i) * n) / 8000)),
      ),
    ),
  );
  const samples: number[] = [];
  const mixes: number[] = [];
  for (let t = 0; t < WARMUP + TICKS; t++) {
    const start = performance.now();
    feeds.forEach((feed, i) => {
      feed(
        writeRtp(
          { payloadType: 0, marker: false, sequence: t & 0xffff, timestamp: t * 160, ssrc: i },
          payloads[i] as Uint8Array,
        ),
      );
    });
    const mixStart = process.cpuUsage();
    if (mixed) room.tick();
    const mixCpu = process.cpuUsage(mixStart);
    for (const s of sessions) s.tick();
    if (t >= WARMUP) {
      samples.push(performance.now() - start);
      mixes.push((mixCpu.user + mixCpu.system) / 1000);
    }
  }
  room.close();
  return { tick: quantiles(samples), mix: quantiles(mixes) };
}

export interface MixReport {
  members: number;
  /** Whole ticks of the same calls in no room. */
  floor: Figures;
  /** Whole ticks in one room. */
  mixed: Figures;
  /** The room's mix alone (decode, sum, encode), CPU time. */
  mix: Figures;
}

export function measureConferenceMix(sizes = [50, 200]): MixReport[] {
  return sizes.map((members) => {
    const floor = measure(members, false).tick;
    const { tick, mix } = measure(members, true);
    return { members, floor, mixed: tick, mix };
  });
}

export function printConferenceMix(reports: MixReport[]): void {
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  console.log(
    `conference mixing, in-process over the worker's room and sessions, ${TICKS} ticks per size; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}:`,
  );
  for (const r of reports) {
    console.log(
      `  ${String(r.members).padStart(4)} members: mix (CPU) p50 ${ms(r.mix.p50)} p99 ${ms(r.mix.p99)} max ${ms(r.mix.max)}` +
        ` (${((r.mix.p50 / r.members) * 1000).toFixed(2)} us per member); whole tick (wall) p50 ${ms(r.mixed.p50)} p99 ${ms(r.mixed.p99)}` +
        ` vs floor (same calls in no room) p50 ${ms(r.floor.p50)} p99 ${ms(r.floor.p99)}: ratio p50 ${(r.mixed.p50 / Math.max(1e-9, r.floor.p50)).toFixed(2)}`,
    );
  }
  const largest = reports[reports.length - 1];
  if (largest) {
    const perMember = largest.mixed.p50 / largest.members;
    console.log(
      `  conference members one core mixes within the 20 ms tick (their calls' receiving and sending included): ~${Math.floor(20 / perMember)}`,
    );
  }
  const fifty = reports.find((r) => r.members === 50);
  if (fifty) {
    console.log(
      `  goal, a 50-member room mixed within the 20 ms tick at p99: ${fifty.mix.p99 < 20 ? 'met' : 'NOT met'} (mix ${ms(fifty.mix.p99)}, whole tick ${ms(fifty.mixed.p99)})`,
    );
  }
}
