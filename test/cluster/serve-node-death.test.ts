/**
 * Three real `rcml serve` nodes on one PostgreSQL database and one Redis prefix: node 2 is
 * killed (SIGKILL) while its agent is bridged with a customer of node 1 and another of its
 * customers waits in the queue. The survivors end the bridge, close node 2's calls, drop its
 * member from the queue and go on matching.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisQueueStore } from '../../src/cluster/redis-queue-store.js';
import { clusterDatabase, eventually } from '../support/cluster.js';
import { accountRequests, documentServer, startNodes } from '../support/cluster-nodes.js';
import { exitOf, type ServeProcess } from '../support/serve-process.js';
import { PG_URL, REDIS_PREFIX, REDIS_URL } from '../support/services.js';

const ACCOUNT = `AC${'e'.repeat(32)}`;
const TOKEN = 'node-death-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
const CUSTOMERS = '+15550100';
const AGENTS = '+15550200';
/**
 * Node liveness TTL. A node beats every third of it, so it is taken for dead only after missing
 * two beats: 3 s survives the event-loop stalls of three node processes starting on a busy
 * 2-core machine (shorter TTLs took live nodes for dead there), and a death is seen within 4 s.
 */
const TTL_MS = 3000;

const DOCUMENTS: Record<string, string> = {
  '/customer': '<Enqueue joinUrl="/cust-join" action="/enq-after">support</Enqueue>',
  '/cust-join': '<Say>an agent is coming</Say>',
  '/enq-after': '<Hangup/>',
  '/agent': '<Dial action="/dialed" timeout="600"><Queue joinUrl="/agent-join">support</Queue></Dial>',
  '/agent-join': '<Say>a customer</Say>',
  '/dialed': '<Hangup/>',
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const { json } = accountRequests(AUTH);

describe.skipIf(!PG_URL || !REDIS_URL)('a node killed in the middle of a cross-node bridge', () => {
  it('ends the bridge on the partner’s node, closes its calls and queue members, and the others go on', async () => {
    const app = await documentServer(DOCUMENTS, cleanups);
    const database = await clusterDatabase(cleanups);
    const prefix = `${REDIS_PREFIX}death_${randomBytes(3).toString('hex')}`;
    const redis = new Redis(REDIS_URL);
    cleanups.push(async () => redis.disconnect());
    const queues = new RedisQueueStore(redis, prefix);
    const env = { RCML_DATABASE_URL: database, RCML_REDIS_URL: REDIS_URL, RCML_REDIS_PREFIX: prefix };
    const nodes = await startNodes(
      cleanups,
      env,
      [
        ...['--clock', 'virtual', '--node-ttl-ms', String(TTL_MS)],
        ...['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--log-format', 'json'],
        ...['--number', `${CUSTOMERS}=${app.url}/customer`, '--number', `${AGENTS}=${app.url}/agent`],
      ],
      [{ id: 'n1' }, { id: 'n2' }, { id: 'n3' }],
    );
    const [one, two, three] = nodes as [ServeProcess, ServeProcess, ServeProcess];
    const alive = [one, two, three];
    /** Moves the virtual clock of every node still running by a second, in step. */
    const tick = async () => {
      for (const node of alive) await json(node.url, '/sim/Advance', 'Seconds=1');
    };
    const call = async (node: ServeProcess, to: string) => {
      const from = `+1777${randomBytes(3).readUIntBE(0, 3) % 10_000_000}`;
      const placed = await json(
        node.url,
        '/sim/Calls',
        `From=${encodeURIComponent(from)}&To=${encodeURIComponent(to)}`,
      );
      return placed.sid as string;
    };
    const members = async () => {
      const queue = await queues.findQueue(ACCOUNT, 'support');
      return queue ? (await queues.list(queue.sid, 'enqueued')).map((m) => m.callSid) : [];
    };
    const positionOf = async (callSid: string) => {
      const queue = await queues.findQueue(ACCOUNT, 'support');
      return queue && (await queues.position(queue.sid, 'enqueued', callSid))?.position;
    };
    /** Ticks the clocks until `probe` holds (a bounded number of virtual seconds). */
    const until = async (what: string, probe: () => Promise<boolean> | boolean, seconds = 30) => {
      for (let s = 0; s < seconds; s++) {
        if (await probe()) return;
        await tick();
      }
      throw new Error(`${what}: not after ${seconds} virtual seconds`);
    };
    /** Both nodes have told each other their side is ready: the calls are connected. */
    const bridged = async () => {
      const readies = async (node: string) =>
        (await redis.xrange(`${prefix}:signals:${node}`, '-', '+')).filter(([, fields]) =>
          fields[1]?.includes('"t":"ready"'),
        ).length;
      return (await readies('n1')) >= 1 && (await readies('n2')) >= 1;
    };

    // An agent waits on node 2; a customer calling node 1 is matched with it and bridged.
    const agent = await call(two, AGENTS);
    await tick();
    const customer = await call(one, CUSTOMERS);
    await until(
      'the customer and the agent joined',
      () => app.of('/cust-join', customer).length === 1 && app.of('/agent-join', agent).length === 1,
    );
    await until('both sides ready', bridged);
    // Then two more customers wait: node 2's first, node 3's behind it.
    const ghost = await call(two, CUSTOMERS);
    await tick();
    const next = await call(three, CUSTOMERS);
    await tick();
    await eventually('two customers waiting', async () =>
      JSON.stringify(await members()) === JSON.stringify([ghost, next]) ? true : undefined,
    );
    expect(await positionOf(next)).toBe(2);
    // Answered in the shared records too (a node commits a turn of writes at a time).
    await eventually('node 2’s calls recorded answered', async () => {
      const records = [
        await json(one.url, `${ROOT}/Calls/${agent}.json`),
        await json(one.url, `${ROOT}/Calls/${ghost}.json`),
      ];
      return records.every((r) => r.status === 'in-progress') ? true : undefined;
    });

    two.child.kill('SIGKILL');
    await exitOf(two.child);
    alive.splice(alive.indexOf(two), 1);

    // Node 1's customer is left as when its agent hangs up: nobody else dials, rejoin is off, so it
    // is dropped and its Enqueue action notified with `bridged`.
    const after = await eventually(
      'the customer’s Enqueue action',
      async () => {
        await tick();
        return app.of('/enq-after', customer)[0];
      },
      60_000,
    );
    expect(after).toMatchObject({ QueueResult: 'bridged' });
    await eventually('the customer’s call to end', async () => {
      const record = await json(one.url, `${ROOT}/Calls/${customer}.json`);
      if (record.status === 'completed') return record;
      await tick();
      return undefined;
    });

    // Node 2's calls are closed by a survivor, with notification 12401, seen from node 3.
    await eventually('node 2’s calls closed', async () => {
      const [a, g] = [
        await json(three.url, `${ROOT}/Calls/${agent}.json`),
        await json(three.url, `${ROOT}/Calls/${ghost}.json`),
      ];
      return a.status === 'completed' && g.status === 'completed' ? true : undefined;
    });
    for (const sid of [agent, ghost]) {
      expect(await json(three.url, `${ROOT}/Calls/${sid}.json`)).toMatchObject({ InstanceId: 'n2' });
    }
    const notes = (await json(three.url, `${ROOT}/Notifications.json?PageSize=100`)).notifications as Array<
      Record<string, unknown>
    >;
    const interrupted = notes.filter((n) => String(n.error_code) === '12401').map((n) => n.call_sid);
    expect(interrupted.sort()).toEqual([agent, ghost].sort());
    // Its waiting customer left the queue and the one behind moved up.
    await eventually('node 2’s member gone', async () =>
      JSON.stringify(await members()) === JSON.stringify([next]) ? true : undefined,
    );
    expect(await positionOf(next)).toBe(1);

    // Nodes 1 and 3 keep serving: a new agent on node 1 meets node 3's customer, not the ghost.
    const second = await call(one, AGENTS);
    await until(
      'the new agent and node 3’s customer joined',
      () => app.of('/cust-join', next).length === 1 && app.of('/agent-join', second).length === 1,
    );
    expect(app.of('/agent-join', second)[0]).toMatchObject({ QueuePosition: '1' });
    expect(app.of('/cust-join', ghost)).toEqual([]);
    expect(await members()).toEqual([]);
    for (const node of [one, three]) {
      expect((await fetch(`${node.url}/ready`)).status).toBe(200);
      expect(await json(node.url, `${ROOT}/Calls/${second}.json`)).toMatchObject({ status: 'in-progress' });
    }
  }, 120_000);
});
