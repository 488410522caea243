import { describe, expect, it } from 'vitest';
import { writeWav } from '../../src/engine/wav.js';
import { BASE, callIn, harness, rcml } from './harness.js';

describe('document fetching', () => {
  it('falls back to the FallbackUrl when the first document fails, with the same parameters', async () => {
    const h = harness({ '/fallback': rcml('<Say>Sorry</Say>') });
    h.engine.registerHandler(`${BASE}/broken`, () => ({
      status: 500,
      contentType: 'text/plain',
      body: 'oops',
    }));
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: `${BASE}/broken`,
      FallbackUrl: `${BASE}/fallback`,
      FallbackMethod: 'GET',
    });
    await h.engine.runUntilIdle();
    expect(h.requests.map((r) => [r.kind, r.url, r.method])).toEqual([
      ['rcml', `${BASE}/broken`, 'POST'],
      ['fallback', `${BASE}/fallback`, 'GET'],
    ]);
    expect(h.requests[1].params).toEqual(h.requests[0].params);
    expect(h.notifications.map((n) => n.code)).toEqual(['11206']);
    expect(h.verbs(call.sid)).toEqual(['Say']);
  });

  // A later document that cannot be had fails the call: VoiceInterpreter.onDownloaderResponse
  // sends CallFail outside the downloadingRcml state.
  it('uses the fallback for the first document only, not for actions or redirects', async () => {
    const h = harness({
      '/start': rcml('<Redirect>/gone</Redirect>'),
      '/fallback': rcml('<Say>Sorry</Say>'),
    });
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: `${BASE}/start`,
      FallbackUrl: `${BASE}/fallback`,
    });
    await h.engine.runUntilIdle();
    expect(h.requests.map((r) => r.kind)).toEqual(['rcml', 'redirect']);
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['21402', 1]]);
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
  });

  it.each([
    ['a 404 (21402)', `${BASE}/missing`, '21402', 1],
    ['a URL that is not a URI (11100)', 'not a uri', '11100', 0],
    ['a content type that is no document (12300)', `${BASE}/json`, '12300', 0],
  ])('falls back after %s on the first document, and fails without a fallback', async (_, url, code, log) => {
    for (const withFallback of [true, false]) {
      const h = harness({ '/fallback': rcml('<Say>Sorry</Say>') });
      h.engine.registerHandler(`${BASE}/json`, () => ({
        status: 200,
        contentType: 'application/json',
        body: '{}',
      }));
      h.engine.setNumber('+2', {
        voiceUrl: url,
        voiceFallbackUrl: withFallback ? `${BASE}/fallback` : undefined,
      });
      const call = h.engine.incomingCall('+1', '+2');
      await h.engine.runUntilIdle();
      expect(h.notifications.map((n) => [n.code, n.log])).toEqual([[code, log]]);
      const done = h.engine.getCall(call.sid)!;
      if (withFallback) {
        expect(h.requests.at(-1)).toMatchObject({ kind: 'fallback', url: `${BASE}/fallback` });
        expect(h.verbs(call.sid)).toEqual(['Say']);
        expect(done.status).toBe('completed');
      } else {
        expect(h.verbs(call.sid)).toEqual([]);
        expect(done.status).toBe('failed');
      }
    }
  });

  it('fails a ringing call whose first document is missing (21402) or malformed', async () => {
    const h = harness({ '/bad': '<Response><Say>unclosed</Response>' });
    const missing = await callIn(h, '/nowhere', '+1', '+2');
    const malformed = await callIn(h, '/bad', '+1', '+3');
    expect(missing.status).toBe('failed');
    expect(malformed.status).toBe('failed');
    expect(h.notifications.map((n) => n.code)).toEqual(['21402', '12100']);
    expect(h.notifications[1].message).toMatch(/\d+:\d+/);
  });

  it('reports an I/O error (11205) when nothing serves the URL', async () => {
    const h = harness();
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: 'http://127.0.0.1:1/nothing-listens' });
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
    expect(h.notifications[0]).toMatchObject({ code: '11205', log: 0 });
  });

  it('treats text/plain as Say and audio/wav as Play', async () => {
    const h = harness();
    h.engine.registerHandler(`${BASE}/text`, () => ({
      status: 200,
      contentType: 'text/plain',
      body: 'Hello',
    }));
    h.engine.registerHandler(`${BASE}/audio`, () => ({
      status: 200,
      contentType: 'audio/x-wav',
      body: writeWav(2),
    }));
    const a = await callIn(h, '/text', '+1', '+2');
    const b = await callIn(h, '/audio', '+1', '+3');
    expect(h.verbs(a.sid)).toEqual(['Say']);
    expect(h.verbs(b.sid)).toEqual(['Play']);
    expect(b.duration).toBe(2);
  });

  it('turns parser warnings into notifications and keeps running', async () => {
    const h = harness({ '/w': rcml('<Say loop="-4">Hi</Say>') });
    const call = await callIn(h, '/w');
    expect(call.status).toBe('completed');
    expect(h.notifications.some((n) => n.code === '13510' && n.log === 1)).toBe(true);
  });
});
