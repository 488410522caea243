import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import {
  parseSipMessage,
  SIP_LIMITS,
  type SipMessage,
  SipParseError,
  serializeSipMessage,
} from './message.js';
import { realSipTimers, type SipTimers } from './timers.js';

/** Where a message came from, and so where its answers go. */
export interface SipPeer {
  transport: 'udp' | 'tcp';
  address: string;
  port: number;
}

/** What the transport hands up: a message, or bytes that were no message (answered 400 if a request). */
export interface TransportHandlers {
  message(message: SipMessage, peer: SipPeer): void;
  /** A datagram or stream message that could not be read. */
  invalid(error: SipParseError, peer: SipPeer, raw: string): void;
}

/** SIP over UDP and TCP on one address and port (RFC 3261 section 18). */
export interface SipTransport {
  readonly host: string;
  readonly port: number;
  send(message: SipMessage, peer: SipPeer): void;
  close(): Promise<void>;
}

const key = (address: string, port: number): string => `${address}|${port}`;

/** Datagrams waiting in Node's queue for the socket's system buffer, at most. */
export const UDP_QUEUE_LIMIT = 256;

/** A datagram of CR and LF only: a keep-alive. */
function isKeepAlive(data: Buffer): boolean {
  for (const byte of data) if (byte !== 13 && byte !== 10) return false;
  return true;
}

/** Limits on the TCP connections others open to us. */
export interface TcpLimits {
  /** A connection that completes no message (nor a CRLF keep-alive) for this long is closed, ms. Default 32 s. */
  idleMs: number;
  /** Connections one source (its key, `sourceOf`) may hold. Default 32. */
  perSource: number;
  /** Connections in all. Default half the open-file limit, at most 8192. */
  total: number;
}

/** Half the soft open-file limit (the rest stays for HTTP, RTP, the store), at most 8192. */
export function defaultTcpTotal(): number {
  let soft = 1024;
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (m) soft = m[1] === 'unlimited' ? 65536 : Number(m[1]);
  } catch {
    // Not Linux: a conservative guess.
  }
  return Math.max(16, Math.min(8192, Math.floor(soft / 2)));
}

/** How the transport is run: its timers, the TCP limits, and what a source is. */
export interface TransportOptions {
  timers: SipTimers;
  tcp?: Partial<TcpLimits>;
  /** The key a remote address counts under for `tcp.perSource` (an IPv6 /64, say). */
  sourceOf?(address: string): string;
  /** A connection refused or closed by the limits (for logs). */
  onLimit?(reason: string, peer: SipPeer): void;
}

/**
 * Listens on UDP and TCP at `host:port` (port 0 picks one free for both). A TCP connection is
 * kept by its remote address so requests to that peer (BYE) reuse it.
 */
export async function openSipTransport(
  host: string,
  port: number,
  handlers: TransportHandlers,
  options: TransportOptions = { timers: realSipTimers },
): Promise<SipTransport> {
  // Port 0: the UDP port the system picks may be taken for TCP; try a few.
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOn(host, port, handlers, options);
    } catch (err) {
      if (port !== 0 || attempt >= 10 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
}

async function openOn(
  host: string,
  port: number,
  handlers: TransportHandlers,
  options: TransportOptions,
): Promise<SipTransport> {
  const family = net.isIPv6(host) ? 'udp6' : 'udp4';
  const udp = dgram.createSocket({ type: family, reuseAddr: false });
  const connections = new Map<string, net.Socket>();
  const limits: TcpLimits = {
    idleMs: options.tcp?.idleMs ?? 32_000,
    perSource: options.tcp?.perSource ?? 32,
    total: options.tcp?.total ?? defaultTcpTotal(),
  };
  const sourceOf = options.sourceOf ?? ((address: string) => address);
  /** Connections others opened to us, in all and by source. */
  let accepted = 0;
  const bySource = new Map<string, number>();
  const deliver = (data: Buffer | string, peer: SipPeer) => {
    let message: SipMessage;
    try {
      message = parseSipMessage(data);
    } catch (err) {
      if (err instanceof SipParseError) handlers.invalid(err, peer, data.toString().slice(0, 2000));
      return;
    }
    handlers.message(message, peer);
  };
  udp.on('message', (data, rinfo) => {
    // Keep-alives (CRLF, RFC 5626 section 4.4.1) and stray bytes are not messages, nor worth a log line.
    if (data.length < 4 || isKeepAlive(data)) return;
    deliver(data, { transport: 'udp', address: rinfo.address, port: rinfo.port });
  });
  udp.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, host, () => {
      udp.off('error', reject);
      resolve();
    });
  });
  const bound = udp.address().port;
  const tcp = net.createServer((socket) => {
    const peer: SipPeer = {
      transport: 'tcp',
      address: socket.remoteAddress ?? '',
      port: socket.remotePort ?? 0,
    };
    const source = sourceOf(peer.address);
    const held = bySource.get(source) ?? 0;
    // Past the caps the connection is closed at once: no source can take every descriptor.
    if (accepted >= limits.total || held >= limits.perSource) {
      options.onLimit?.(
        accepted >= limits.total
          ? 'TCP connections at their cap'
          : 'TCP connections of this source at their cap',
        peer,
      );
      socket.destroy();
      return;
    }
    accepted += 1;
    bySource.set(source, held + 1);
    socket.once('close', () => {
      accepted -= 1;
      const left = (bySource.get(source) ?? 1) - 1;
      if (left <= 0) bySource.delete(source);
      else bySource.set(source, left);
    });
    adopt(socket, peer, true);
  });
  const adopt = (socket: net.Socket, peer: SipPeer, inbound = false) => {
    connections.set(key(peer.address, peer.port), socket);
    let pending = Buffer.alloc(0);
    // A connection of theirs that completes nothing for idleMs is closed (keep-alives count).
    let idle: object | undefined;
    const watch = () => {
      if (!inbound) return;
      if (idle) options.timers.clearTimeout(idle);
      idle = options.timers.setTimeout(() => {
        options.onLimit?.('TCP connection idle', peer);
        socket.destroy();
      }, limits.idleMs);
    };
    watch();
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        // Keep-alive CRLFs between messages.
        let pairs = 0;
        while (pending.length >= 2 && pending[0] === 13 && pending[1] === 10) {
          pending = pending.subarray(2);
          pairs++;
        }
        if (pairs > 0) watch();
        // A double-CRLF ping gets its CRLF pong (RFC 5626 section 4.4.1).
        if (pairs >= 2 && pending.length === 0) socket.write('\r\n');
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) {
          if (pending.length > SIP_LIMITS.messageBytes) socket.destroy();
          return;
        }
        const head = pending.subarray(0, end).toString('latin1');
        const m = /^(?:content-length|l)\s*:\s*(\d+)\s*$/im.exec(head);
        const length = m ? Number(m[1]) : 0;
        if (length > SIP_LIMITS.bodyBytes) {
          socket.destroy();
          return;
        }
        if (pending.length < end + 4 + length) return;
        const message = pending.subarray(0, end + 4 + length);
        pending = pending.subarray(end + 4 + length);
        watch();
        deliver(message, peer);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (idle) options.timers.clearTimeout(idle);
      if (connections.get(key(peer.address, peer.port)) === socket)
        connections.delete(key(peer.address, peer.port));
    });
  };
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(bound, host, () => {
      tcp.off('error', reject);
      resolve();
    });
  }).catch(async (err) => {
    udp.close();
    throw err;
  });
  let closed = false;
  let dropped = 0;
  return {
    host,
    port: bound,
    send(message, peer) {
      // A call ended after the service stopped has nobody left to tell.
      if (closed) return;
      const bytes = serializeSipMessage(message);
      if (peer.transport === 'udp') {
        // The system holds a socket's datagrams to an address still being resolved (ARP) for
        // seconds: answers to a spoofed flood from the node's own subnet fill its buffer, and
        // everything after waits in Node's queue, which grew without end (minutes of silence
        // after the flood, and its memory). The queue is bounded: past it a datagram is dropped
        // (SIP sends again what matters), and answers resume seconds after such a flood.
        if (udp.getSendQueueCount() >= UDP_QUEUE_LIMIT) {
          dropped++;
          if (dropped === 1 || dropped % 1000 === 0)
            options.onLimit?.(`UDP send queue full: ${dropped} datagrams dropped`, peer);
          return;
        }
        udp.send(bytes, peer.port, peer.address);
        return;
      }
      let socket = connections.get(key(peer.address, peer.port));
      if (!socket || socket.destroyed) {
        socket = net.connect(peer.port, peer.address);
        adopt(socket, peer);
      }
      socket.write(bytes);
    },
    async close() {
      closed = true;
      for (const socket of connections.values()) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => tcp.close(() => resolve())),
        new Promise<void>((resolve) => udp.close(() => resolve())),
      ]);
    },
  };
}
