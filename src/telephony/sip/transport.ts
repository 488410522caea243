import dgram from 'node:dgram';
import net from 'node:net';
import {
  parseSipMessage,
  SIP_LIMITS,
  type SipMessage,
  SipParseError,
  serializeSipMessage,
} from './message.js';

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

/**
 * Listens on UDP and TCP at `host:port` (port 0 picks one free for both). A TCP connection is
 * kept by its remote address so requests to that peer (BYE) reuse it.
 */
export async function openSipTransport(
  host: string,
  port: number,
  handlers: TransportHandlers,
): Promise<SipTransport> {
  // Port 0: the UDP port the system picks may be taken for TCP; try a few.
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOn(host, port, handlers);
    } catch (err) {
      if (port !== 0 || attempt >= 10 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
}

async function openOn(host: string, port: number, handlers: TransportHandlers): Promise<SipTransport> {
  const family = net.isIPv6(host) ? 'udp6' : 'udp4';
  const udp = dgram.createSocket({ type: family, reuseAddr: false });
  const connections = new Map<string, net.Socket>();
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
    // Keep-alives (CRLF) and stray bytes are not messages.
    if (data.length < 4) return;
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
  const tcp = net.createServer((socket) =>
    adopt(socket, { transport: 'tcp', address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 }),
  );
  const adopt = (socket: net.Socket, peer: SipPeer) => {
    connections.set(key(peer.address, peer.port), socket);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        // Keep-alive CRLFs between messages.
        while (pending.length >= 2 && pending[0] === 13 && pending[1] === 10) pending = pending.subarray(2);
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
        deliver(message, peer);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => connections.delete(key(peer.address, peer.port)));
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
  return {
    host,
    port: bound,
    send(message, peer) {
      // A call ended after the service stopped has nobody left to tell.
      if (closed) return;
      const bytes = serializeSipMessage(message);
      if (peer.transport === 'udp') {
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
