/**
 * A real `rcml serve` node of a cluster whose PostgreSQL goes away (a TCP proxy in front of it
 * drops every connection and refuses new ones) while it runs calls: the node stays up, its
 * calls go on to their end with their webhooks and status callbacks delivered (signed with the
 * keys it already knew), reads answer 503 with `Retry-After`, and once the database is back
 * every record lands.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase, eventually } from '../support/cluster.js';
import { accountRequests, documentServer, startNodes } from '../support/cluster-nodes.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { ServeProcess } from '../support/serve-process.js';
import { PG_URL } from '../support/services.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

const ACCOUNT = `AC${'6'.repeat(32)}`;
const TOKEN = 'db-outage-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
const DEEP = process.env.RCML_DEEP === '1';
const CALLS = DEEP ? 12 : 3;
/** How long the calls run on while PostgreSQL is away (seconds of their Pause). */
const OUTAGE_S = DEEP ? 20 : 2;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const { send, json } = accountRequests(AUTH);

describe.skipIf(!PG_URL)('PostgreSQL away while a node runs calls', () => {
  it(
    'keeps the node up and the calls running to their end, and answers reads 503',
    async () => {
      const app = await documentServer(
        {
          '/hold': `<Say>hello</Say><Pause length="${OUTAGE_S}"/><Redirect>/after</Redirect>`,
          '/after': '<Say>bye</Say><Hangup/>',
          '/status': ' ',
        },
        cleanups,
      );
      const direct = new URL(await clusterDatabase(cleanups));
      const proxy = await startTcpProxy(
        { host: direct.hostname, port: Number(direct.port || 5432) },
        cleanups,
      );
      const database = new URL(direct);
      database.host = `127.0.0.1:${proxy.port}`;
      const redis = await startOwnRedis(cleanups);
      const [node] = (await startNodes(
        cleanups,
        { RCML_DATABASE_URL: database.toString(), RCML_REDIS_URL: redis.url },
        [
          ...['--node-ttl-ms', '2000'],
          ...['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--log-format', 'json'],
        ],
        [{ id: 'n1' }],
      )) as [ServeProcess];
      const sids: string[] = [];
      for (let i = 0; i < CALLS; i++) {
        const created = await json(
          node.url,
          `${ROOT}/Calls.json`,
          `From=%2B1555010${i}&To=%2B1555012${i}&Url=${encodeURIComponent(`${app.url}/hold`)}` +
            `&StatusCallback=${encodeURIComponent(`${app.url}/status`)}`,
        );
        sids.push(created.sid as string);
      }
      await eventually('the calls in their documents', async () =>
        sids.every((sid) => app.of('/hold', sid).length === 1) ? true : undefined,
      );

      proxy.cut();
      // Reads: unavailable for now, try again.
      const read = await send(node.url, `${ROOT}/Calls/${sids[0]}.json`);
      expect(read.status).toBe(503);
      expect(read.headers.get('retry-after')).toBe('1');
      expect(((await read.json()) as { message: string }).message).toMatch(/cannot read/);

      // The calls go on to their end (real clock): Redirect, Hangup, final status callback.
      await eventually(
        'the calls’ webhooks and status callbacks',
        async () =>
          sids.every((sid) => app.of('/after', sid).length === 1 && app.of('/status', sid).length === 1)
            ? true
            : undefined,
        20_000 + OUTAGE_S * 1000,
      );
      expect(app.of('/status', sids[0] as string)[0]).toMatchObject({ CallStatus: 'completed' });
      // Signed with the account's key, read before the outage.
      const statusRequests = app.requests.filter((r) => r.path === '/status');
      expect(statusRequests.every((r) => (r.signature ?? '').length > 0)).toBe(true);
      expect(node.child.exitCode).toBeNull();
      expect((await fetch(`${node.url}/ready`)).status).toBe(503);

      proxy.restore();
      await eventually('the records to land', async () => {
        const records = await Promise.all(sids.map((sid) => send(node.url, `${ROOT}/Calls/${sid}.json`)));
        if (records.some((r) => r.status !== 200)) return undefined;
        const bodies = (await Promise.all(records.map((r) => r.json()))) as Array<{ status: string }>;
        return bodies.every((b) => b.status === 'completed') ? true : undefined;
      });
      expect((await fetch(`${node.url}/ready`)).status).toBe(200);
      expect(node.err()).not.toMatch(/uncaught|unhandled/i);
    },
    60_000 + OUTAGE_S * 1000,
  );
});
