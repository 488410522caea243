import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { createReadiness, redactUrls } from '../../../src/api/ops/index.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import type { Store } from '../../../src/store/ports.js';

const BASE = 'http://ops.test';

function appWith(readiness = createReadiness(), store: Store = createMemoryStore(), base = BASE) {
  const app = createApp({ store, baseUrl: base, ops: { readiness } });
  const get = async (path: string) => {
    const res = await app.fetch(new Request(`${base}${path}`));
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  return { app, get, readiness };
}

describe('GET /health and GET /ready', () => {
  it('answer without authentication: the process is up, the store answers', async () => {
    const { get } = appWith();
    expect(await get('/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { store: { ok: true } } });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 naming the failing part, credentials removed from its reason', async () => {
    const readiness = createReadiness();
    readiness.register('postgres', () => {
      throw new Error('connect ECONNREFUSED for postgres://rcml:s3cret@db.internal:5432/rcml');
    });
    readiness.register('redis', async () => undefined);
    const { get } = appWith(readiness);
    const ready = await get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('unavailable');
    expect(ready.body.failing).toEqual(['postgres']);
    const checks = ready.body.checks as Record<string, { ok: boolean; error?: string }>;
    expect(checks.redis?.ok).toBe(true);
    expect(checks.store?.ok).toBe(true);
    expect(checks.postgres?.error).toContain('postgres://***@db.internal:5432/rcml');
    expect(JSON.stringify(ready.body)).not.toContain('s3cret');
    expect((await get('/health')).status).toBe(200);
  });

  it('fails a store that throws, and a check that does not answer in time', async () => {
    const store = createMemoryStore();
    const broken: Store = {
      ...store,
      accounts: { ...store.accounts, get: async () => Promise.reject(new Error('database is locked')) },
    };
    const readiness = createReadiness({ timeoutMs: 5 });
    readiness.register('redis', () => new Promise<void>(() => undefined));
    const { get } = appWith(readiness, broken);
    const ready = await get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toEqual(['redis', 'store']);
    const checks = ready.body.checks as Record<string, { error?: string }>;
    expect(checks.store?.error).toBe('database is locked');
    expect(checks.redis?.error).toBe('no answer within 5 ms');
  });

  it('is mounted under the base path, and a check can be replaced and removed', async () => {
    const { get, readiness } = appWith(createReadiness(), createMemoryStore(), 'http://ops.test/prefix');
    readiness.register('extra', () => {
      throw new Error('first');
    });
    readiness.register('extra', () => undefined);
    expect(readiness.names()).toEqual(['store', 'extra']);
    expect((await get('/ready')).status).toBe(200);
    readiness.register('gone', () => {
      throw new Error('down');
    });
    expect((await get('/ready')).status).toBe(503);
    expect(readiness.unregister('gone')).toBe(true);
    expect((await get('/ready')).status).toBe(200);
    expect((await get('/health')).status).toBe(200);
  });

  it('serves no /metrics unless metrics are given', async () => {
    const { app } = appWith();
    expect((await app.fetch(new Request(`${BASE}/metrics`))).status).toBe(404);
  });
});

describe('redactUrls', () => {
  it('removes user and password from every URL and keeps the rest', () => {
    expect(redactUrls('a postgres://u:p@h:1/db and redis://:pw@r:6379 and http://plain/x')).toBe(
      'a postgres://***@h:1/db and redis://***@r:6379 and http://plain/x',
    );
  });
});
