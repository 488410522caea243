/**
 * The fetcher against webhooks that misbehave on purpose (test/support/hostile-webhook.ts):
 * every fetch is bounded in bytes and in time, ends with its call and with the engine, and a
 * failed document ends like an unreachable URL (fallback on the first one, a notification).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, startHostileServer } from '../support/hostile-webhook.js';
import { harness, rcml } from './harness.js';

const FALLBACK = 'http://app.test/fallback';

describe('hostile webhooks', () => {
  let server: HostileServer;

  beforeAll(async () => {
    server = await startHostileServer({ dripMs: 20 });
  });

  afterAll(async () => {
    await server.stop();
  });

  const responses = (h: ReturnType<typeof harness>) =>
    h.events.flatMap((e) => (e.type === 'response' ? [e] : []));

  it('stops reading an endless document at the 1 MiB cap: 12100, then the fallback', async () => {
    const h = harness({ '/fallback': rcml('<Say>Sorry</Say>') });
    const closed = server.closed('/endless');
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: `${server.base}/endless`,
      FallbackUrl: FALLBACK,
    });
    await h.engine.runUntilIdle();
    await closed;
    await h.engine.close();
    expect(h.notifications.map((n) => [n.code, n.message])).toEqual([
      ['12100', 'document too large: response body exceeds 1048576 bytes'],
    ]);
    expect(h.verbs(call.sid)).toEqual(['Say']);
    // The connection was dropped past the cap: the server could write only what the socket
    // buffers held, nowhere near an endless body.
    expect(server.written.get('/endless')).toBeLessThan(32 * 1024 * 1024);
  });

  it('reads at most the configured cap', async () => {
    const h = harness({}, { http: { maxDocumentBytes: 1000 } });
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${server.base}/endless` });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(h.notifications[0]).toMatchObject({
      code: '12100',
      message: expect.stringMatching(/exceeds 1000 bytes/),
    });
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
  });

  it('ends a dripping document at the total deadline although no idle timeout fires: 11205, then the fallback', async () => {
    const h = harness(
      { '/fallback': rcml('<Say>Sorry</Say>') },
      { http: { deadlineMs: 300, timeoutMs: 5000 } },
    );
    const closed = server.closed('/drip');
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: `${server.base}/drip`,
      FallbackUrl: FALLBACK,
    });
    await h.engine.runUntilIdle();
    await closed;
    await h.engine.close();
    expect(h.notifications.map((n) => [n.code, n.message])).toEqual([
      ['11205', 'HTTP I/O error: no complete answer within 300 ms'],
    ]);
    expect(h.verbs(call.sid)).toEqual(['Say']);
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');
  });

  it('does not inflate a gzip bomb: the compressed bytes are no RCML (12100)', async () => {
    const h = harness({ '/fallback': rcml('<Say>Sorry</Say>') });
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: `${server.base}/gzip-bomb`,
      FallbackUrl: FALLBACK,
    });
    await h.engine.runUntilIdle();
    await h.engine.close();
    // Inflated, the body would pass the 1 MiB cap; read as it came, it is a small binary blob.
    expect(server.bombBytes).toBeGreaterThan(1024 * 1024);
    expect(server.bombSize).toBeLessThan(1024 * 1024);
    expect(h.notifications).toHaveLength(1);
    expect(h.notifications[0].code).toBe('12100');
    expect(h.notifications[0].message).toMatch(/^document parse failure/);
    expect(h.verbs(call.sid)).toEqual(['Say']);
  });

  it('stops a redirect loop after 5 redirects: the last redirect is the answer (11206)', async () => {
    const h = harness();
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${server.base}/loop` });
    await h.engine.runUntilIdle();
    await h.engine.close();
    expect(server.hits.get('/loop')).toBe(6);
    expect(h.notifications.map((n) => [n.code, n.message])).toEqual([
      ['11206', 'HTTP protocol error: status 302'],
    ]);
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
  });

  it('gives up on a server that never sends headers after the idle timeout (11205)', async () => {
    const h = harness({}, { http: { timeoutMs: 200 } });
    const closed = server.closed('/no-headers');
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${server.base}/no-headers` });
    await h.engine.runUntilIdle();
    await closed;
    await h.engine.close();
    expect(h.notifications).toHaveLength(1);
    expect(h.notifications[0]).toMatchObject({ code: '11205', message: expect.stringMatching(/timeout/i) });
    expect(h.engine.getCall(call.sid)?.status).toBe('failed');
  });

  it('reads only the first bytes of media to learn its length', async () => {
    const h = harness(
      { '/play': rcml(`<Play>${server.base}/endless</Play>`) },
      { http: { mediaProbeBytes: 4096 } },
    );
    const closed = server.closed('/endless');
    const before = server.written.get('/endless') ?? 0;
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: 'http://app.test/play' });
    await h.engine.runUntilIdle();
    await closed;
    await h.engine.close();
    expect((server.written.get('/endless') ?? 0) - before).toBeLessThan(32 * 1024 * 1024);
    // Not a WAV file: its length is unknown, the default one is used.
    expect(h.notifications.map((n) => n.message)).toEqual([expect.stringMatching(/not a WAV or MP4 file/)]);
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');
  });

  it('aborts the fetch in flight when its call ends: the connection closes at once', async () => {
    const h = harness({}, { http: { deadlineMs: 60_000, timeoutMs: 60_000 } });
    const arrived = server.arrival('/drip');
    const closed = server.closed('/drip');
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${server.base}/drip` });
    const idle = h.engine.runUntilIdle();
    await arrived;
    h.engine.hangupParty(call.sid);
    await closed;
    await idle;
    await h.engine.close();
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');
    expect(responses(h)).toMatchObject([{ kind: 'rcml', status: 0, error: 'aborted: the call ended' }]);
    // The aborted document is no failure of the application: no fallback, no notification.
    expect(h.notifications).toEqual([]);
  });

  it('close() lets a final status callback run for the grace, then destroys it', async () => {
    const h = harness(
      { '/app': rcml('<Pause length="100"/>') },
      { http: { deadlineMs: 60_000, timeoutMs: 60_000 } },
    );
    const closed = server.closed('/drip');
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: 'http://app.test/app',
      StatusCallback: `${server.base}/drip`,
    });
    await h.engine.advance(5);
    await h.engine.close({ graceMs: 100 });
    await closed;
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');
    const callbacks = responses(h).filter((r) => r.kind === 'status-callback');
    expect(callbacks).toMatchObject([{ status: 0, error: 'aborted: the engine closed' }]);
  });
});
