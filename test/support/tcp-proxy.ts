/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL in the cluster tests) that a test can
 * cut: `cut()` drops every connection at once and refuses new ones (the server seems gone, as
 * when it restarts or the network fails), `restore()` lets connections through again.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  cleanups: Array<() => Promise<void>>,
): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cutOff = false;
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
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: TcpProxy = {
    port: (server.address() as { port: number }).port,
    cut: () => {
      cutOff = true;
      for (const s of open) s.destroy();
    },
    restore: () => {
      cutOff = false;
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
