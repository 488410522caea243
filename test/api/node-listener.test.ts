import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createNodeListener } from '../../src/api/node-listener.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../store/fixtures.js';
import { basic } from './harness.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const EXAMPLES = ['express', 'fastify', 'node-http'] as const;
const docs = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
const exampleText = (name: string) =>
  readFileSync(new URL(`../../docs/examples/${name}.ts`, import.meta.url), 'utf8');

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const CALL_FORM =
  'From=%2B15550100&To=%2B15550123&Url=http%3A%2F%2Fapp.test%2Fvoice' +
  '&StatusCallback=http%3A%2F%2Fapp.test%2Fstatus&StatusCallbackEvent=initiated&StatusCallbackEvent=completed';

describe('docs/embedding.md examples, each run', () => {
  for (const name of EXAMPLES) {
    it(`${name}: the API under /rcml next to the host's own routes, bodies read`, async () => {
      expect(docs).toContain(exampleText(name).trim());
      const example = (await import(`../../docs/examples/${name}.ts`)) as {
        start(port: number): Promise<{
          server: Server;
          account: { sid: string };
          authToken: string;
          close(): Promise<void>;
        }>;
      };
      const { server, account: acct, authToken, close } = await example.start(0);
      cleanups.push(close);
      const url = urlOf(server);
      const auth = basic(acct.sid, authToken);
      expect(await (await fetch(`${url}/`)).text()).toBe('my app');

      const root = `${url}/rcml/platform/2012-04-24/Accounts/${acct.sid}`;
      const created = await fetch(`${root}/Calls.json`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: CALL_FORM,
      });
      const call = (await created.json()) as { sid: string; to: string; message?: string };
      expect(created.status, call.message).toBe(200);
      expect(call.to).toBe('+15550123');

      const json = await fetch(`${root}/Calls.json`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ From: '+15550100', To: 'client:alice', Url: 'http://app.test/voice' }),
      });
      expect(((await json.json()) as { to: string }).to).toBe('client:alice');

      const list = await fetch(`${root}/Calls.json`, { headers: { Authorization: auth } });
      expect(((await list.json()) as { total: number }).total).toBe(2);
      expect((await fetch(`${url}/rcml/nothing`)).status).toBe(404);
    });
  }
});

async function listen(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return urlOf(server);
}

async function api() {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  return createApp({ store, baseUrl: 'http://127.0.0.1/rcml' });
}

const AUTH_A = basic(ACCOUNT_A, tokenOf(ACCOUNT_A));

describe('createNodeListener', () => {
  it('answers a clear error when another middleware read the body and kept nothing', async () => {
    const web = express();
    web.use((req, _res, next) => {
      req.resume();
      req.on('end', () => next());
    });
    web.use('/rcml', createNodeListener(await api()));
    const url = await listen(web);
    const res = await fetch(`${url}/rcml/platform/2012-04-24/Accounts/${ACCOUNT_A}/Calls.json`, {
      method: 'POST',
      headers: { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: CALL_FORM,
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const body = (await res.json()) as { code: number; kind: string; message: string };
    expect(body.code).toBe(20500);
    expect(body.kind).toBe('body-consumed');
    expect(body.message).toMatch(/already read by another middleware/);
  });

  it('keeps every value of a repeated field a parser turned into an array', async () => {
    const seen: string[] = [];
    const listener = createNodeListener({
      fetch: async (request) => {
        seen.push(await request.text());
        return new Response('ok');
      },
    });
    const web = express();
    web.use(express.urlencoded({ extended: false }));
    web.use('/rcml', listener);
    const url = await listen(web);
    await fetch(`${url}/rcml/x`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'A=1&E=initiated&E=completed',
    });
    expect(new URLSearchParams(seen[0]).getAll('E')).toEqual(['initiated', 'completed']);
  });

  it('reads a raw body kept by the host, and the stream when nothing read it', async () => {
    const seen: string[] = [];
    const listener = createNodeListener({
      fetch: async (request) => {
        seen.push(`${new URL(request.url).pathname} ${await request.text()}`);
        return new Response('ok');
      },
    });
    const url = await listen((req, res) => {
      if (req.url === '/kept') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          Object.assign(req, { rawBody: Buffer.concat(chunks) });
          void listener(req, res);
        });
      } else void listener(req, res);
    });
    await fetch(`${url}/kept`, { method: 'POST', body: 'a=1' });
    await fetch(`${url}/stream`, { method: 'POST', body: 'b=2' });
    expect(seen).toEqual(['/kept a=1', '/stream b=2']);
  });
});
