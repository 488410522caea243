/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL or Redis in the cluster tests) that a
 * test can cut or freeze: `cut()` drops every connection at once and refuses new ones (the server
 * seems gone, as when it restarts or the network fails), `restore()` lets connections through
 * again; `freeze()` keeps every connection open but forwards nothing either way (a frozen server,
 * or a partition that drops packets: what is sent waits), `thaw()` delivers what waited and goes
 * on.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): void;
  restore(): void;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  cleanups: Array<() => Promise<void>>,
): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cutOff = false;
  let frozen = false;
  /** What waits while frozen: the socket each chunk is for. */
  let held: Array<[Socket, Buffer]> = [];
  const forward = (to: Socket) => (chunk: Buffer) => {
    if (frozen) held.push([to, chunk]);
    else to.write(chunk);
  };
  const server = createServer((client) => {
    if (cutOff) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        open.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: TcpProxy = {
    port: (server.address() as { port: number }).port,
    cut: () => {
      cutOff = true;
      held = [];
      for (const s of open) s.destroy();
    },
    restore: () => {
      cutOff = false;
    },
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      const waiting = held;
      held = [];
      for (const [to, chunk] of waiting) if (!to.destroyed) to.write(chunk);
    },
    close: () =>
      new Promise((resolve) => {
        proxy.cut();
        server.close(() => resolve());
      }),
  };
  cleanups.push(proxy.close);
  return proxy;
}
