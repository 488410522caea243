/**
 * Credentials in URLs (SPEC Authentication 4): `user:password@` is sent as HTTP Basic
 * authentication, to that origin only, and never shown: notifications, events and traces read
 * `user:***@`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/engine/index.js';
import { harness, rcml } from './harness.js';

const EXPECTED = `Basic ${Buffer.from('alice:p@ss:word').toString('base64')}`;

describe('credentials in URLs', () => {
  let server: Server;
  let base = '';
  let other = '';
  const seen: Array<{ path: string; authorization: string | undefined; url: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ path: url.pathname, authorization: req.headers.authorization, url: req.url ?? '' });
      req.resume();
      if (url.pathname.startsWith('/secure') && req.headers.authorization !== EXPECTED) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="app"' });
        return res.end();
      }
      const xml = (s: string) => {
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(rcml(s));
      };
      switch (url.pathname) {
        case '/secure/start':
          return xml(
            '<Gather numDigits="1" action="next" timeout="1"/><Redirect>/secure/elsewhere</Redirect>',
          );
        case '/secure/elsewhere':
          res.writeHead(302, { location: `${other}/open/landing` });
          return res.end();
        case '/open/landing':
          return xml('<Redirect>/secure/after</Redirect>');
        case '/secure/callback':
          res.writeHead(204);
          return res.end();
        default:
          res.writeHead(404);
          return res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://alice:p%40ss%3Aword@127.0.0.1:${port}`;
    // The same server under another origin name: a redirect there must not carry the password.
    other = `http://localhost:${port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('fetches with Basic auth, resolves relative URLs with it, and never sends it to another origin', async () => {
    const h = harness();
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: `${base}/secure/start`,
      StatusCallback: `${base}/secure/callback`,
    });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(seen.map((s) => [s.path, s.authorization === EXPECTED])).toEqual([
      ['/secure/start', true],
      ['/secure/elsewhere', true],
      // Another origin: no credentials (so the app's next relative URL has none either).
      ['/open/landing', false],
      ['/secure/after', false],
      ['/secure/callback', true],
    ]);
    // The document after the cross-origin redirect was refused (401): the call failed.
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
    expect(h.notifications.map((n) => [n.code, n.url])).toEqual([
      ['11206', `http://localhost:${new URL(base).port}/secure/after`],
    ]);
  });

  it('shows every URL with its password hidden: notifications, requests, responses, verbs', async () => {
    const h = harness();
    h.engine.registerHandler('http://bob:hunter2@app.test/start', () => ({
      status: 200,
      contentType: 'text/xml',
      body: rcml('<Say>Hi</Say><Redirect>/missing</Redirect>'),
    }));
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: 'http://bob:hunter2@app.test/start',
      StatusCallback: 'http://bob:hunter2@app.test/cb',
    });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
    const shown = JSON.stringify({ n: h.notifications, e: h.events });
    expect(shown).not.toContain('hunter2');
    expect(shown).toContain('bob:***@app.test');
    expect(h.notifications[0].url).toBe('http://bob:***@app.test/missing');
    expect(h.requests.map((r) => r.url)).toContain('http://bob:***@app.test/cb');
  });

  it('hides the password of a live modification URL in its event', async () => {
    const h = harness({ '/wait': rcml('<Pause length="30"/>') });
    h.engine.registerHandler('http://carol:topsecret@app.test/next', () => ({
      status: 200,
      contentType: 'text/xml',
      body: rcml('<Hangup/>'),
    }));
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: 'http://app.test/wait' });
    await h.engine.advance(1);
    h.engine.modifyCall(call.sid, { Url: 'http://carol:topsecret@app.test/next' });
    await h.engine.runUntilIdle();
    expect(JSON.stringify(h.events)).not.toContain('topsecret');
    expect(h.events.find((e) => e.type === 'modify')).toMatchObject({
      params: { Url: 'http://carol:***@app.test/next' },
    });
  });

  it('hides passwords in any text, leaving other URLs alone', () => {
    expect(redactUrl('at http://u:pw@h/x and https://v:@h2')).toBe(
      'at http://u:***@h/x and https://v:***@h2',
    );
    expect(redactUrl('http://user@h/x sip:alice@example.com mailto:a@b')).toBe(
      'http://user@h/x sip:alice@example.com mailto:a@b',
    );
  });

  it('refuses a URL that is not one without showing its password', () => {
    const h = harness();
    expect(() => h.engine.createCall({ From: '+1', To: '+2', Url: 'http://u:secret@[bad/x' })).toThrow(
      /u:\*\*\*@/,
    );
  });
});
