/**
 * A real `rcml serve` (virtual clock, seeded sids, a temporary data directory) with a local RCML
 * application beside it, and a client of its account: what the client's tests run against.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RcmlClient } from '../../src/client.js';
import { exitOf, startServeProcess } from '../support/serve-process.js';

export const ACCOUNT_SID = `AC${'c1'.repeat(16)}`;
export const AUTH_TOKEN = 'client-test-token';
const PROJECT = join(import.meta.dirname, '../../fixtures/designer/say.json');

/** RCML documents of the local application, by path. */
const DOCUMENTS: Record<string, string> = {
  '/record': '<Say>Leave a message</Say><Record maxLength="2" playBeep="false"/>',
  '/gather': '<Gather numDigits="1" action="/done"><Say>Press a key</Say></Gather>',
  '/done': '<Hangup/>',
  '/hold': '<Pause length="600"/>',
  '/conference': '<Dial><Conference>room</Conference></Dial>',
};

export interface ClientWorld {
  client: RcmlClient;
  /** `{base_url}` of the server. */
  url: string;
  /** The local application's origin (`/record`, `/gather`, `/hold`, `/conference`; others 404). */
  app: string;
  /** Requests the application received: path and form fields. */
  requests: Array<{ path: string; fields: URLSearchParams }>;
  /** The sid of the Visual Designer application the server was started with. */
  applicationSid: string;
  close(): Promise<void>;
}

export async function startClientWorld(): Promise<ClientWorld> {
  const requests: ClientWorld['requests'] = [];
  const app = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://app').pathname;
      requests.push({ path, fields: new URLSearchParams(body) });
      const doc = DOCUMENTS[path];
      if (path === '/status') res.writeHead(204).end();
      else if (doc === undefined) res.writeHead(404).end('no such document');
      else res.writeHead(200, { 'Content-Type': 'text/xml' }).end(`<Response>${doc}</Response>`);
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const data = mkdtempSync(join(tmpdir(), 'rcml-client-'));
  const closeApp = () => new Promise<void>((resolve) => app.close(() => resolve()));
  let served: Awaited<ReturnType<typeof startServeProcess>>;
  try {
    served = await startServeProcess(
      [
        ...['--data', data, '--clock', 'virtual', '--seed', '7'],
        ...['--account-sid', ACCOUNT_SID, '--auth-token', AUTH_TOKEN, '--project', PROJECT],
      ],
      { RCML_DRAIN_SECONDS: '0', RCML_LOG_LEVEL: 'warn' },
    );
  } catch (err) {
    await closeApp();
    rmSync(data, { recursive: true, force: true });
    throw err;
  }
  const applicationSid = /application (AP[0-9a-f]{32})/.exec(served.out())?.[1] ?? '';
  return {
    client: createClient({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, baseUrl: served.url }),
    url: served.url,
    app: `http://127.0.0.1:${(app.address() as AddressInfo).port}`,
    requests,
    applicationSid,
    async close() {
      served.child.kill('SIGTERM');
      await exitOf(served.child);
      await closeApp();
      rmSync(data, { recursive: true, force: true });
    },
  };
}
