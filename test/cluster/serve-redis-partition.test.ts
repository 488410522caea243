/**
 * Two real `rcml serve` nodes, their own Redis, node 2 reaching it through a TCP proxy the test
 * freezes: node 2 is cut off from Redis (what it sends waits, nothing comes back) while node 1
 * still reaches it. Node 2's lease lapses (`/ready` 503, its webhooks wait), node 1 takes its call
 * over once its key has expired, and when the partition heals node 2 learns it was declared dead
 * and exits 75 without a webhook or a write: the survivor's record of the call stands.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase, eventually } from '../support/cluster.js';
import { accountRequests, documentServer, startNodes } from '../support/cluster-nodes.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { ServeProcess } from '../support/serve-process.js';
import { PG_URL } from '../support/services.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

const ACCOUNT = `AC${'5'.repeat(32)}`;
const TOKEN = 'partition-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
const TTL_MS = 2000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const { send, json } = accountRequests(AUTH);

describe.skipIf(!PG_URL)('a node partitioned from Redis past its TTL', () => {
  it('stops acting, is taken over by the node that still reaches Redis, and exits 75 when the partition heals', async () => {
    const app = await documentServer(
      {
        '/hold': '<Say>hello</Say><Pause length="5"/><Redirect>/after</Redirect>',
        '/after': '<Pause length="3600"/>',
        '/status': ' ',
      },
      cleanups,
    );
    const database = await clusterDatabase(cleanups);
    const redis = await startOwnRedis(cleanups);
    const direct = new URL(redis.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) }, cleanups);
    const proxied = new URL(redis.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const common = [
      ...['--clock', 'virtual', '--node-ttl-ms', String(TTL_MS)],
      ...['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--log-format', 'json'],
    ];
    const [[one], [two]] = (await Promise.all([
      startNodes(cleanups, { RCML_DATABASE_URL: database, RCML_REDIS_URL: redis.url }, common, [
        { id: 'n1' },
      ]),
      startNodes(cleanups, { RCML_DATABASE_URL: database, RCML_REDIS_URL: proxied.toString() }, common, [
        { id: 'n2' },
      ]),
    ])) as [[ServeProcess], [ServeProcess]];
    const placed = await json(
      two.url,
      `${ROOT}/Calls.json`,
      `From=%2B15550100&To=%2B15550123&Url=${encodeURIComponent(`${app.url}/hold`)}` +
        `&StatusCallback=${encodeURIComponent(`${app.url}/status`)}&StatusCallbackEvent=answered&StatusCallbackEvent=completed`,
    );
    const sid = placed.sid as string;
    await eventually('the call in its document', async () => {
      await json(two.url, '/sim/Advance', 'Seconds=1');
      return app.of('/hold', sid).length === 1 ? true : undefined;
    });
    await eventually('the call answered in the shared records', async () =>
      (await json(one.url, `${ROOT}/Calls/${sid}.json`)).status === 'in-progress' ? true : undefined,
    );

    proxy.freeze();
    await eventually('node 2’s lease to lapse', async () =>
      (await fetch(`${two.url}/ready`)).status === 503 ? true : undefined,
    );
    // Its virtual clock moves past the Pause: the Redirect's webhook waits for a lease it will
    // not get back.
    void send(two.url, '/sim/Advance', 'Seconds=10').catch(() => undefined);
    const closed = await eventually('node 1 to close node 2’s call', async () => {
      const record = await json(one.url, `${ROOT}/Calls/${sid}.json`);
      return record.status === 'completed' ? record : undefined;
    });
    await eventually('the final status callback', async () => app.of('/status', sid)[1]);
    expect((await fetch(`${one.url}/ready`)).status).toBe(200);
    expect(app.of('/after', sid)).toEqual([]);
    const fetched = app.requests.length;

    proxy.thaw();
    await eventually('node 2 to exit', async () => (two.child.exitCode !== null ? true : undefined), 10_000);
    expect(two.child.exitCode).toBe(75);
    expect(two.err()).toContain('declared dead by the cluster');
    expect(app.of('/after', sid)).toEqual([]);
    expect(app.requests.length).toBe(fetched);
    expect(app.of('/status', sid).map((p) => [p.CallStatus, p.InstanceId])).toEqual([
      ['in-progress', 'n2'],
      ['completed', 'n2'],
    ]);
    expect(await json(one.url, `${ROOT}/Calls/${sid}.json`)).toEqual(closed);
    const notes = (await json(one.url, `${ROOT}/Notifications.json?PageSize=100`)).notifications as Array<
      Record<string, unknown>
    >;
    expect(notes.map((n) => [n.call_sid, String(n.error_code)])).toEqual([[sid, '12401']]);
    expect(notes[0]?.message_text).toMatch(/marked completed by node n1/);
  }, 40_000);
});
