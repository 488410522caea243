import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local RCML app for load tests: answers `body`, after `delayOf(n)` ms for its n-th request. */
export interface TestApp {
  url: string;
  requests: number;
  /** Resolves once the app has received `n` requests. */
  reached(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startApp(
  body = '<Response><Hangup/></Response>',
  delayOf: (n: number) => number = () => 0,
): Promise<TestApp> {
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const app: TestApp = {
    url: '',
    requests: 0,
    reached: (n) =>
      app.requests >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const n = app.requests++;
    for (const w of waiters.filter((w) => app.requests >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    req.resume();
    req.on('end', () => {
      const answer = (): void => {
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(body);
      };
      const ms = delayOf(n);
      if (ms > 0) setTimeout(answer, ms);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`;
  app.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return app;
}
