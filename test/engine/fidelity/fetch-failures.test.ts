import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, callIn, harness, rcml } from '../harness.js';

/**
 * What happens when a document or media cannot be had, as in the platform's voice interpreter
 * (RestComm/Restcomm-Connect, restcomm.interpreter). Each test names the source.
 */

const status = (code: number) => () => ({
  status: code,
  contentType: 'text/xml',
  body: rcml('<Say>body</Say>'),
});

describe('documents that cannot be had', () => {
  // VoiceInterpreter.onDownloaderResponse: only `response.succeeded() && SC_OK == status` is a
  // document; in downloadingRcml with a fallback URL the fallback is fetched.
  it('a first document answered 204 (or 201) is no document: the fallback runs', async () => {
    for (const code of [201, 204]) {
      const h = harness({ '/fallback': rcml('<Say>Fallback</Say>') });
      h.engine.registerHandler(`${BASE}/start`, status(code));
      h.engine.setNumber('+2', { voiceUrl: `${BASE}/start`, voiceFallbackUrl: `${BASE}/fallback` });
      const call = h.engine.incomingCall('+1', '+2');
      await h.engine.runUntilIdle();
      expect(h.notifications.map((n) => [n.code, n.message])).toEqual([
        ['11206', `HTTP protocol error: status ${code}`],
      ]);
      expect(h.verbs(call.sid)).toEqual(['Say']);
      expect(h.engine.getCall(call.sid)?.status).toBe('completed');
    }
  });

  // VoiceInterpreter.onDownloaderResponse: outside downloadingRcml a failed download is
  // `call.tell(new CallFail(...))`, and Call.Failed ends the call `failed`.
  it('a later document (Redirect) that is not a 200 ends an answered call failed', async () => {
    const h = harness({ '/start': rcml('<Say>Hi</Say><Redirect>/later</Redirect>') });
    h.engine.registerHandler(`${BASE}/later`, status(500));
    const call = await callIn(h, '/start');
    expect(call.status).toBe('failed');
    expect(h.verbs(call.sid)).toEqual(['Say', 'Redirect']);
    expect(h.notifications.map((n) => n.code)).toEqual(['11206']);
  });

  it('an action that cannot be fetched ends the call failed', async () => {
    const h = harness({ '/start': rcml('<Gather action="http://127.0.0.1:1/none" numDigits="1"/>') });
    h.engine.setParty('+15550001', { digits: [{ at: 1, keys: '5' }] });
    const call = await callIn(h, '/start');
    expect(call.status).toBe('failed');
    expect(h.notifications.map((n) => n.code)).toEqual(['11205']);
  });
});

describe('media that cannot be fetched', () => {
  // VoiceInterpreter.onDiskCacheResponse: a failed download (FileDownloader.download throws on
  // an I/O error or a status >= 400) is warning 13233 and the interpreter goes to hangingUp.
  it('a Play whose media answers 404 is warning 13233 and hangs up', async () => {
    const h = harness({ '/start': rcml('<Play>/missing.wav</Play><Say>never</Say>') });
    const call = await callIn(h, '/start');
    expect(h.notifications.map((n) => [n.code, n.log, n.message, n.url])).toEqual([
      ['13233', 1, 'media could not be fetched (HTTP 404)', `${BASE}/missing.wav`],
    ]);
    expect(h.verbs(call.sid)).toEqual(['Play']);
    expect(call.status).toBe('completed');
  });

  it('a Play whose media server is unreachable is warning 13233 and hangs up', async () => {
    const h = harness({ '/start': rcml('<Play>http://127.0.0.1:1/a.wav</Play><Say>never</Say>') });
    const call = await callIn(h, '/start');
    expect(h.notifications.map((n) => n.code)).toEqual(['13233']);
    expect(h.verbs(call.sid)).toEqual(['Play']);
    expect(call.status).toBe('completed');
  });
});

describe('redirects of a POST', () => {
  let server: Server;
  let base = '';
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        seen.push(`${req.method} ${path} ${new URLSearchParams(body).get('CallStatus') ?? '-'}`);
        if (path === '/found') {
          res.writeHead(302, { location: '/see-other' });
          return res.end();
        }
        if (path === '/see-other') {
          res.writeHead(303, { location: '/doc' });
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(rcml('<Say>Done</Say>'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // Downloader.fetch: on 301/302/303/307 the next hop is
  // new HttpRequestDescriptor(uri, temp.getMethod(), temp.getParameters()).
  it('a POST stays a POST with its parameters across 302 and 303', async () => {
    const h = harness();
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${base}/found` });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(seen).toEqual(['POST /found in-progress', 'POST /see-other in-progress', 'POST /doc in-progress']);
    expect(h.verbs(call.sid)).toEqual(['Say']);
  });
});
