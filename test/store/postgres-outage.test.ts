/** A PostgreSQL store whose server goes away: no crash, reads refused as unavailable, writes held. */
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/open.js';
import { StoreUnavailableError } from '../../src/store/write-queue.js';
import { PG_URL, uniqueName } from '../support/services.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { ACCOUNT_A, account, call } from './fixtures.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** A store reaching PostgreSQL through a proxy the test can cut or freeze, with account A. */
async function proxiedStore(timeouts: { connectTimeoutMs: number; queryTimeoutMs?: number }) {
  const direct = new URL(PG_URL as string);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) }, cleanups);
  const url = new URL(direct);
  url.host = `127.0.0.1:${proxy.port}`;
  const store = await openPostgresStore({ url: url.toString(), schema: uniqueName('s'), ...timeouts });
  cleanups.push(() => store.close());
  await store.accounts.put(account(ACCOUNT_A));
  return { proxy, store };
}

describe.skipIf(!PG_URL)('a PostgreSQL store whose server goes away', () => {
  it('survives a checked-out connection failing, refuses reads as unavailable and writes once back', async () => {
    const { proxy, store } = await proxiedStore({ connectTimeoutMs: 500 });

    // A connection lost while checked out emits 'error' on its client: no listener would crash.
    const client = await store.pool.connect();
    expect(() => client.emit('error', new Error('Connection terminated unexpectedly'))).not.toThrow();
    client.release(true);

    proxy.cut();
    await expect(store.accounts.get(ACCOUNT_A)).rejects.toThrow(StoreUnavailableError);
    const held = store.calls.put(call(1));
    await expect(store.calls.get(ACCOUNT_A, call(1).sid)).rejects.toThrow(/cannot read for now/);
    proxy.restore();
    await held;
    expect(await store.calls.get(ACCOUNT_A, call(1).sid)).toMatchObject({ sid: call(1).sid });
  });

  it('fails a query the frozen server does not answer, as unavailable, and writes what waited once it answers', async () => {
    const { proxy, store } = await proxiedStore({ connectTimeoutMs: 300, queryTimeoutMs: 300 });

    // Connections stay open and the server answers nothing: in-flight queries must not hang.
    proxy.freeze();
    await expect(store.accounts.get(ACCOUNT_A)).rejects.toThrow(/cannot read for now: Query read timeout/);
    const held = store.calls.put(call(2));
    await expect(store.calls.get(ACCOUNT_A, call(2).sid)).rejects.toThrow(StoreUnavailableError);
    expect(store.writes?.writable).toBe(false);
    proxy.thaw();
    await held;
    expect(await store.calls.get(ACCOUNT_A, call(2).sid)).toMatchObject({ sid: call(2).sid });
    expect(store.writes?.writable).toBe(true);
  });
});
