import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';
import { Histogram } from './histogram.js';
import { Pacer } from './pacer.js';
import type { MediaCommand, MediaEvent, OpenCommand, RoomCommand } from './protocol.js';
import { ConferenceRoom } from './room.js';
import { MediaSession, type SessionTotals } from './session.js';

/** What the host tells the worker when it starts it. */
export interface MediaWorkerData {
  /** Address RTP sockets bind to. */
  host: string;
  /** Even ports from `min` to `max` are used, in turn. */
  min: number;
  max: number;
}

const port = parentPort;
if (!port) throw new Error('the media worker runs in a worker thread');
const config = workerData as MediaWorkerData;
const sessions = new Map<number, MediaSession>();
const rooms = new Map<number, ConferenceRoom>();
const lateness = new Histogram();
const work = new Histogram();
const totals: SessionTotals = { sent: 0, received: 0, lost: 0, rejected: 0, interArrival: new Histogram() };
const pacer = new Pacer(() => {
  const start = performance.now();
  // Rooms first: each member's mix is ready when its session sends.
  for (const room of rooms.values()) room.tick();
  for (const session of sessions.values()) {
    try {
      session.tick();
    } catch {
      // One broken call must not stop the others' audio.
      sessions.delete(session.id);
      session.close();
    }
  }
  work.add(performance.now() - start);
}, lateness);
const emit = (event: MediaEvent) => {
  if (event.type === 'recorded') port.postMessage(event, [event.pcm.buffer as ArrayBuffer]);
  else port.postMessage(event);
};
const first = config.min + (config.min % 2);
const span = Math.floor((config.max - first) / 2) + 1;
const opening = new Set<number>();

/**
 * Binds an RTP socket on a free even port of the range, tried from a random one on: a call's
 * port cannot be guessed from the last one handed out.
 */
async function bindNext(): Promise<dgram.Socket> {
  const start = randomInt(0, span);
  for (let tries = 0; tries < span; tries++) {
    const candidate = first + ((start + tries) % span) * 2;
    if (opening.has(candidate)) continue;
    opening.add(candidate);
    const socket = dgram.createSocket(config.host.includes(':') ? 'udp6' : 'udp4');
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(candidate, config.host, () => {
          socket.off('error', reject);
          resolve();
        });
      });
      socket.on('error', () => {});
      return socket;
    } catch {
      socket.close();
    } finally {
      opening.delete(candidate);
    }
  }
  throw new Error(`no free RTP port in ${config.min}-${config.max}`);
}

async function open(command: OpenCommand): Promise<void> {
  try {
    const socket = await bindNext();
    sessions.set(command.id, new MediaSession(command, socket, emit, totals));
    pacer.run();
    emit({ type: 'opened', id: command.id, port: socket.address().port });
  } catch (err) {
    emit({ type: 'open-failed', id: command.id, reason: err instanceof Error ? err.message : String(err) });
  }
}

/** The conference room commands (see `room.ts`). */
function roomCommand(command: RoomCommand): void {
  if (command.type === 'room-open') {
    if (!rooms.has(command.room)) rooms.set(command.room, new ConferenceRoom(command.room, emit));
    return;
  }
  const room = rooms.get(command.room);
  if (!room) return;
  switch (command.type) {
    case 'room-join': {
      const session = sessions.get(command.id);
      if (session) room.join(session, command.muted);
      return;
    }
    case 'room-leave':
      room.leave(command.id);
      return;
    case 'room-mute':
      room.mute(command.id, command.muted);
      return;
    case 'room-play':
      room.play(command.play, command.pcm, command.loop);
      return;
    case 'room-stop':
      room.stop(command.play);
      return;
    case 'room-close':
      rooms.delete(command.room);
      room.close();
      return;
  }
}

port.on('message', (command: MediaCommand) => {
  if (command.type.startsWith('room-')) {
    roomCommand(command as RoomCommand);
    return;
  }
  switch (command.type) {
    case 'open':
      void open(command);
      return;
    case 'update':
      sessions.get(command.id)?.update(command, command.codec);
      return;
    case 'play':
      sessions.get(command.id)?.play(command.play, command.pcm, command.loop, command.key);
      return;
    case 'stop':
      sessions.get(command.id)?.stop(command.play);
      return;
    case 'record':
      sessions.get(command.id)?.record(command.record, command.maxMs, command.silenceMs);
      return;
    case 'stop-record':
      sessions.get(command.id)?.stopRecord(command.record);
      return;
    case 'link': {
      const session = sessions.get(command.id);
      const old = session?.peer;
      old?.link(undefined);
      session?.link(undefined);
      const peer = command.peer === null ? undefined : sessions.get(command.peer);
      if (session && peer && peer !== session) {
        peer.peer?.link(undefined);
        session.link(peer);
        peer.link(session);
      }
      if (command.record) session?.recordBridge(command.record.record, command.record.maxMs);
      return;
    }
    case 'digits':
      sessions.get(command.id)?.sendDigits(command.digits);
      return;
    case 'close': {
      const session = sessions.get(command.id);
      if (!session) return;
      sessions.delete(command.id);
      session.close();
      if (sessions.size === 0) pacer.halt();
      return;
    }
    case 'stats':
      emit({
        type: 'stats',
        stats: {
          sessions: sessions.size,
          ticks: pacer.ticks,
          latenessP99: lateness.quantile(0.99),
          latenessMax: lateness.max,
          tickWorkP99: work.quantile(0.99),
          tickWorkMax: work.max,
          interArrivalP999: totals.interArrival.quantile(0.999),
          packetsSent: totals.sent,
          packetsReceived: totals.received,
          packetsLost: totals.lost,
          packetsRejected: totals.rejected,
        },
      });
      lateness.reset();
      work.reset();
      totals.interArrival.reset();
      return;
    case 'shutdown':
      pacer.halt();
      for (const session of sessions.values()) session.close();
      sessions.clear();
      port.close();
      return;
  }
});
