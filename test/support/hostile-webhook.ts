/**
 * A webhook server that misbehaves on purpose, on 127.0.0.1, for the fetcher's limits:
 * `/endless` streams a body that never ends (`/gib`: 1 GiB with its length declared), `/drip` sends one byte every `dripMs`, `/gzip-bomb`
 * answers a small gzip body that inflates to `bombBytes`, `/loop` redirects to itself for ever,
 * `/no-headers` accepts the request and never answers. It counts what it wrote, and tells when
 * a request arrives and when its connection closes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface HostileServer {
  base: string;
  /** Body bytes written per path. */
  written: Map<string, number>;
  /** Requests seen per path. */
  hits: Map<string, number>;
  /** Resolves when the next request for `path` arrives. */
  arrival(path: string): Promise<void>;
  /** Resolves when the connection of the next request for `path` closes. */
  closed(path: string): Promise<void>;
  /** Bytes the gzip bomb's body inflates to. */
  bombBytes: number;
  /** The gzip bomb's compressed size. */
  bombSize: number;
  stop(): Promise<void>;
}

export interface HostileOptions {
  dripMs?: number;
  bombBytes?: number;
}

export async function startHostileServer(options: HostileOptions = {}): Promise<HostileServer> {
  const dripMs = options.dripMs ?? 50;
  const bombBytes = options.bombBytes ?? 32 * 1024 * 1024;
  const bomb = gzipSync(Buffer.alloc(bombBytes, 0x20));
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const written = new Map<string, number>();
  const hits = new Map<string, number>();
  const arrivals = new Map<string, Array<() => void>>();
  const closes = new Map<string, Array<() => void>>();
  const timers = new Set<NodeJS.Timeout>();
  const wait = (table: Map<string, Array<() => void>>, path: string) =>
    new Promise<void>((resolve) => {
      const list = table.get(path) ?? [];
      list.push(resolve);
      table.set(path, list);
    });
  const fire = (table: Map<string, Array<() => void>>, path: string) => {
    const list = table.get(path);
    table.delete(path);
    for (const fn of list ?? []) fn();
  };
  const count = (path: string, n: number) => written.set(path, (written.get(path) ?? 0) + n);

  function endless(path: string, res: ServerResponse, length?: number): void {
    res.writeHead(200, { 'content-type': 'text/xml', ...(length ? { 'content-length': length } : {}) });
    let left = length ?? Number.POSITIVE_INFINITY;
    const pump = () => {
      while (!res.destroyed) {
        if (left <= 0) return void res.end();
        left -= chunk.length;
        count(path, chunk.length);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  }

  function drip(path: string, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.write('<');
    count(path, 1);
    const timer = setInterval(() => {
      if (res.destroyed) return;
      res.write(' ');
      count(path, 1);
    }, dripMs);
    timers.add(timer);
    res.once('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    req.resume();
    res.once('close', () => fire(closes, path));
    fire(arrivals, path);
    switch (path) {
      case '/endless':
        return endless(path, res);
      case '/gib':
        // A declared 1 GiB body, streamed until the reader goes away.
        return endless(path, res, 1024 ** 3);
      case '/drip':
        return drip(path, res);
      case '/gzip-bomb':
        res.writeHead(200, { 'content-type': 'text/xml', 'content-encoding': 'gzip' });
        count(path, bomb.length);
        return res.end(bomb);
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/no-headers':
        return;
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    written,
    hits,
    arrival: (path) => wait(arrivals, path),
    closed: (path) => wait(closes, path),
    bombBytes,
    bombSize: bomb.length,
    async stop() {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
