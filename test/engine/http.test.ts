import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeWav } from '../../src/engine/wav.js';
import { harness, rcml } from './harness.js';

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

describe('fetching RCML over HTTP', () => {
  let server: Server;
  let base = '';
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = await readBody(req);
      seen.push({
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        form: Object.fromEntries(new URLSearchParams(body)),
      });
      const xml = (s: string): void => {
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(s);
      };
      switch (url.pathname) {
        case '/start':
          return xml(rcml('<Redirect method="GET">/moved</Redirect>'));
        case '/moved':
          res.writeHead(302, { location: '/new/place' });
          return res.end();
        case '/new/place':
          return xml(rcml('<Redirect>next</Redirect>'));
        case '/new/next':
          res.writeHead(303, { location: '/final' });
          return res.end();
        case '/final':
          return xml(rcml('<Say>Done</Say>'));
        case '/p301':
          res.writeHead(301, { location: '/app-xml' });
          return res.end();
        case '/app-xml':
          res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
          return res.end(rcml('<Redirect>/p307</Redirect>'));
        case '/p307':
          res.writeHead(307, { location: '/html' });
          return res.end();
        case '/html':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end(rcml('<Redirect>/p308</Redirect>'));
        case '/p308':
          res.writeHead(308, { location: '/wave' });
          return res.end();
        case '/wave':
          res.writeHead(200, { 'content-type': 'audio/wave' });
          return res.end(Buffer.from(writeWav(2)));
        case '/silent':
          // Never answers: the engine's timeout must give up.
          return;
        default:
          res.writeHead(404);
          return res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  // Redirects keep the method and the parameters: restcomm.interpreter Downloader.fetch builds
  // the next hop as new HttpRequestDescriptor(uri, temp.getMethod(), temp.getParameters()).
  it('sends GET parameters in the query, POST as a form, follows redirects and resolves against the final URL', async () => {
    const h = harness();
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${base}/start` });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /start',
      'GET /moved',
      'GET /new/place',
      'POST /new/next',
      // A 303 keeps the POST and its form too (Downloader.fetch).
      'POST /final',
    ]);
    expect(seen[4].form.CallSid).toBe(call.sid);
    expect(seen[0].form).toMatchObject({
      CallSid: call.sid,
      From: '+1',
      To: '+2',
      CallStatus: 'in-progress',
    });
    expect(seen[1].query).toMatchObject({ CallSid: call.sid, Direction: 'outbound-api' });
    expect(h.verbs(call.sid)).toEqual(['Redirect', 'Redirect', 'Say']);
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');
  });

  it('keeps POST and its parameters on 301/307/308 and reads every RCML and WAV content type', async () => {
    const h = harness();
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${base}/p301` });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /p301',
      'POST /app-xml',
      'POST /p307',
      'POST /html',
      'POST /p308',
      'POST /wave',
      // The audio/wave document plays its own URL; the media fetch measures its length.
      'GET /wave',
    ]);
    // Every redirect repeats the form body.
    expect(seen[1].form.CallSid).toBe(call.sid);
    expect(seen[3].form.CallSid).toBe(call.sid);
    expect(seen[5].form.CallSid).toBe(call.sid);
    expect(h.verbs(call.sid)).toEqual(['Redirect', 'Redirect', 'Play']);
    expect(h.engine.getCall(call.sid)).toMatchObject({ status: 'completed', duration: 2 });
    expect(h.notifications).toEqual([]);
  });

  it('gives up on a server that never answers after the HTTP timeout, with 11205, then uses the fallback', async () => {
    const h = harness({ '/fallback': rcml('<Say>Sorry</Say>') }, { http: { timeoutMs: 200 } });
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: `${base}/silent`,
      FallbackUrl: 'http://app.test/fallback',
    });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['11205', 0]]);
    expect(h.notifications[0].message).toMatch(/timeout/i);
    expect(h.verbs(call.sid)).toEqual(['Say']);
  });
});
