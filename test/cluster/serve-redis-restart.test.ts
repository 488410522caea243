/**
 * Two real `rcml serve` nodes on a Redis of the test's own, restarted empty while a customer
 * waits in a queue on node 1: both nodes join again within a beat (their epochs renewed), the
 * waiting customer is put back and met by an agent calling node 2, and when node 2 is killed
 * afterwards node 1 still sees it die and closes its calls.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase, eventually } from '../support/cluster.js';
import { accountRequests, documentServer, startNodes } from '../support/cluster-nodes.js';
import { startOwnRedis } from '../support/redis-server.js';
import { exitOf, type ServeProcess } from '../support/serve-process.js';
import { PG_URL } from '../support/services.js';

const ACCOUNT = `AC${'7'.repeat(32)}`;
const TOKEN = 'redis-restart-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
const CUSTOMERS = '+15550100';
const AGENTS = '+15550200';
const TTL_MS = 2000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const { json } = accountRequests(AUTH);

describe.skipIf(!PG_URL)('Redis restarted empty under a cluster', () => {
  it('rejoins both nodes, puts the waiting customer back and still sees a node die', async () => {
    const app = await documentServer(
      {
        '/customer': '<Enqueue joinUrl="/cust-join">support</Enqueue>',
        '/cust-join': '<Say>an agent is coming</Say>',
        '/agent': '<Dial timeout="600"><Queue>support</Queue></Dial>',
      },
      cleanups,
    );
    const database = await clusterDatabase(cleanups);
    const redis = await startOwnRedis(cleanups);
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    cleanups.push(async () => client.disconnect());
    const env = { RCML_DATABASE_URL: database, RCML_REDIS_URL: redis.url };
    const [one, two] = (await startNodes(
      cleanups,
      env,
      [
        ...['--clock', 'virtual', '--node-ttl-ms', String(TTL_MS)],
        ...['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--log-format', 'json'],
        ...['--number', `${CUSTOMERS}=${app.url}/customer`, '--number', `${AGENTS}=${app.url}/agent`],
      ],
      [{ id: 'n1' }, { id: 'n2' }],
    )) as [ServeProcess, ServeProcess];
    const alive = [one, two];
    const tick = async () => {
      for (const node of alive) await json(node.url, '/sim/Advance', 'Seconds=1');
    };
    const call = async (node: ServeProcess, to: string) =>
      (
        await json(
          node.url,
          '/sim/Calls',
          `From=%2B1777${randomBytes(2).readUInt16BE()}&To=${encodeURIComponent(to)}`,
        )
      ).sid as string;

    const customer = await call(one, CUSTOMERS);
    await tick();
    await eventually('the customer waiting in Redis', async () =>
      (await client.keys('rcml:member:*')).length === 1 ? true : undefined,
    );

    await redis.restartEmpty();
    // Both nodes are members again, under new epochs, and the customer waits again.
    await eventually('both nodes members again', async () => {
      const members = await client.hgetall('rcml:nodes').catch(() => ({}));
      return Object.keys(members).sort().join() === 'n1,n2' ? members : undefined;
    });
    await eventually('the customer back in its queue', async () =>
      (await client.keys('rcml:member:*')).length === 1 ? true : undefined,
    );
    await eventually('node 1 to log it', async () =>
      one.err().includes('Redis lost its data') ? true : undefined,
    );

    // An agent calling node 2 meets node 1's customer.
    const agent = await call(two, AGENTS);
    await eventually('the customer and the agent matched', async () => {
      await tick();
      return app.of('/cust-join', customer).length === 1 ? true : undefined;
    });
    await eventually('the agent answered in the shared records', async () =>
      (await json(one.url, `${ROOT}/Calls/${agent}.json`)).status === 'in-progress' ? true : undefined,
    );

    // Node 2 dies: node 1 closes its call within a few TTLs (it never would with no members).
    two.child.kill('SIGKILL');
    await exitOf(two.child);
    alive.splice(1, 1);
    await eventually(
      'node 1 to close node 2’s call',
      async () =>
        (await json(one.url, `${ROOT}/Calls/${agent}.json`)).status === 'completed' ? true : undefined,
      3 * TTL_MS,
    );
    await eventually('node 1 to log the takeover', async () =>
      one.err().includes('took over a dead node') ? true : undefined,
    );
  }, 60_000);

  it('holds webhooks while Redis is frozen past the TTL and goes on, nobody taken over, once it answers', async () => {
    const app = await documentServer(
      {
        '/hold': '<Say>hello</Say><Pause length="5"/><Redirect>/after</Redirect>',
        '/after': '<Pause length="3600"/>',
      },
      cleanups,
    );
    const database = await clusterDatabase(cleanups);
    const redis = await startOwnRedis(cleanups);
    const env = { RCML_DATABASE_URL: database, RCML_REDIS_URL: redis.url };
    const nodes = (await startNodes(
      cleanups,
      env,
      [
        ...['--clock', 'virtual', '--node-ttl-ms', String(TTL_MS)],
        ...['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--log-format', 'json'],
        ...['--number', `${CUSTOMERS}=${app.url}/hold`],
      ],
      [{ id: 'n1' }, { id: 'n2' }],
    )) as [ServeProcess, ServeProcess];
    const [one] = nodes;
    const sid = (await json(one.url, '/sim/Calls', `From=%2B17770000001&To=${encodeURIComponent(CUSTOMERS)}`))
      .sid as string;
    await json(one.url, '/sim/Advance', 'Seconds=1');
    expect(app.of('/hold', sid)).toHaveLength(1);

    redis.freeze();
    for (const node of nodes) {
      await eventually('the lease to lapse', async () =>
        (await fetch(`${node.url}/ready`)).status === 503 ? true : undefined,
      );
    }
    // The call reaches its Redirect: the request waits for the lease (and the virtual clock
    // for the request), however long the probes below take.
    let advanced = false;
    const advancing = json(one.url, '/sim/Advance', 'Seconds=10').then(() => {
      advanced = true;
    });
    for (const node of nodes) expect((await fetch(`${node.url}/ready`)).status).toBe(503);
    expect(await json(one.url, `${ROOT}/Calls/${sid}.json`)).toMatchObject({ status: 'in-progress' });
    expect(advanced).toBe(false);
    expect(app.of('/after', sid)).toEqual([]);

    redis.thaw();
    await advancing;
    await eventually('the held webhook sent', async () =>
      app.of('/after', sid).length === 1 ? true : undefined,
    );
    for (const node of nodes) {
      await eventually('ready again', async () =>
        (await fetch(`${node.url}/ready`)).status === 200 ? true : undefined,
      );
      expect(node.child.exitCode).toBeNull();
      expect(node.err()).not.toContain('took over a dead node');
    }
    expect(await json(one.url, `${ROOT}/Calls/${sid}.json`)).toMatchObject({ status: 'in-progress' });
  }, 60_000);
});
