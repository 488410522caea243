import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
        default:
          res.writeHead(404);
          return res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

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
      'GET /final',
    ]);
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
});
