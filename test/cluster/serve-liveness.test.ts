import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisQueueStore } from '../../src/cluster/redis-queue-store.js';
import { clusterDatabase, eventually } from '../support/cluster.js';
import { accountRequests } from '../support/cluster-nodes.js';
import { exitOf, type ServeProcess, startServeProcess } from '../support/serve-process.js';
import { PG_URL, REDIS_PREFIX, REDIS_URL } from '../support/services.js';

const ACCOUNT = `AC${'d'.repeat(32)}`;
const TOKEN = 'liveness-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
const HOLD = '+15550100';
const WAIT = '+15550200';
const TAKE = '+15550300';
const CONFERENCE = '+15550400';
/** Short enough that a death is seen within seconds, long enough for a node starved of CPU on a busy machine. */
const TTL_MS = 3000;

const DOCUMENTS: Record<string, string> = {
  '/hold': '<Response><Say>hello</Say><Pause length="3600"/></Response>',
  '/wait': '<Response><Enqueue>support</Enqueue></Response>',
  '/take': '<Response><Dial><Queue>support</Queue></Dial></Response>',
  '/conference': '<Response><Dial><Conference>room</Conference></Dial></Response>',
  '/redirected': '<Response><Pause length="3600"/></Response>',
};
/** Requests the platform made to the documents: path and call. */
const fetched: Array<{ path: string; callSid: string | null }> = [];

const cleanups: Array<() => Promise<void>> = [];
const nodes = new Map<string, ServeProcess>();
let start: (id: string) => Promise<ServeProcess>;
let redis: Redis;
let queues: RedisQueueStore;
let prefix: string;
let documents: string;

const { send, json } = accountRequests(AUTH);
const url = (id: string) => (nodes.get(id) as ServeProcess).url;
/** A node's answer with the node's own address taken out (links name the node asked). */
const same = (x: unknown) => JSON.parse(JSON.stringify(x).replace(/http:\/\/127\.0\.0\.1:\d+/g, ''));

/** Places an inbound call on node `id` and lets its virtual clock run a second, so it is in its document. */
async function place(id: string, to: string): Promise<string> {
  const call = await json(
    url(id),
    '/sim/Calls',
    `From=%2B1555${randomBytes(3).readUIntBE(0, 3) % 10_000_000}&To=${encodeURIComponent(to)}`,
  );
  await json(url(id), '/sim/Advance', 'Seconds=1');
  return call.sid as string;
}

const members = async () => {
  const queue = await queues.findQueue(ACCOUNT, 'support');
  return queue ? (await queues.list(queue.sid, 'enqueued')).map((m) => m.callSid) : [];
};
/** The queue's callers once they are `expected` (arrivals land a moment after the clock moved). */
const waiting = (expected: string[]) =>
  eventually(`callers ${expected.join(', ')} in the queue`, async () => {
    const now = await members();
    return JSON.stringify(now) === JSON.stringify(expected) ? now : undefined;
  });

describe.skipIf(!PG_URL || !REDIS_URL)('rcml serve nodes watching each other', () => {
  beforeAll(async () => {
    const rcml = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        fetched.push({ path: req.url ?? '', callSid: new URLSearchParams(body).get('CallSid') });
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        res.end(DOCUMENTS[req.url ?? ''] ?? '<Response><Hangup/></Response>');
      });
    });
    await new Promise<void>((resolve) => rcml.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => rcml.close(() => resolve())));
    documents = `http://127.0.0.1:${(rcml.address() as AddressInfo).port}`;
    const database = await clusterDatabase(cleanups);
    prefix = `${REDIS_PREFIX}live_${randomBytes(3).toString('hex')}`;
    redis = new Redis(REDIS_URL);
    queues = new RedisQueueStore(redis, prefix);
    cleanups.push(async () => redis.disconnect());
    const env = { RCML_DATABASE_URL: database, RCML_REDIS_URL: REDIS_URL, RCML_REDIS_PREFIX: prefix };
    start = async (id) => {
      const dir = mkdtempSync(join(tmpdir(), `rcml-${id}-`));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const node = await startServeProcess(
        [
          ...['--node-id', id, '--data', dir, '--clock', 'virtual', '--node-ttl-ms', String(TTL_MS)],
          ...['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--log-format', 'json'],
          ...['--number', `${HOLD}=${documents}/hold`, '--number', `${WAIT}=${documents}/wait`],
          ...['--number', `${TAKE}=${documents}/take`, '--number', `${CONFERENCE}=${documents}/conference`],
        ],
        env,
      );
      nodes.set(id, node);
      return node;
    };
    await Promise.all(['n1', 'n2', 'n3'].map((id) => start(id)));
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes.values()) {
      node.child.kill('SIGKILL');
      await exitOf(node.child);
    }
    for (const f of cleanups.splice(0).reverse()) await f();
  });

  it('answers reads alike on every node and forwards live-call writes to the owner', async () => {
    const call = await place('n1', HOLD);
    const one = await json(url('n1'), `${ROOT}/Calls/${call}.json`);
    // The owner is the platform's InstanceId of the call.
    expect(one).toMatchObject({ status: 'in-progress', InstanceId: 'n1' });
    for (const id of ['n2', 'n3']) {
      expect(same(await json(url(id), `${ROOT}/Calls/${call}.json`))).toEqual(same(one));
      expect(same(await json(url(id), `${ROOT}/Calls.json`))).toEqual(
        same(await json(url('n1'), `${ROOT}/Calls.json`)),
      );
    }

    // A refused write: the owner's answer, byte for byte, whichever node is asked.
    const local = await send(url('n1'), `${ROOT}/Calls/${call}.json`, 'Status=ringing');
    const forwarded = await send(url('n2'), `${ROOT}/Calls/${call}.json`, 'Status=ringing');
    expect(forwarded.status).toBe(local.status);
    expect(forwarded.status).toBe(400);
    expect(forwarded.headers.get('content-type')).toBe(local.headers.get('content-type'));
    expect(await forwarded.text()).toBe(await local.text());

    // Digits reach the call on its owner.
    const digits = await send(url('n3'), `/sim/Calls/${call}/Digits`, 'Digits=1');
    expect(digits.status).toBe(200);
    expect(await digits.json()).toEqual({ call_sid: call, digits: '1' });
    // A wrong token is refused by the node asked, as the route would.
    const refused = await fetch(`${url('n2')}${ROOT}/Calls/${call}.json`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${ACCOUNT}:wrong`).toString('base64')}` },
      body: new URLSearchParams({ Status: 'completed' }),
    });
    expect(refused.status).toBe(401);

    // The hang-up sent to n3 ends the call that runs on n1.
    const ended = await send(url('n3'), `${ROOT}/Calls/${call}.json`, 'Status=completed');
    expect(ended.status).toBe(200);
    expect(await ended.json()).toMatchObject({ sid: call, status: 'completed', InstanceId: 'n1' });
    for (const id of ['n1', 'n2']) {
      expect(await json(url(id), `${ROOT}/Calls/${call}.json`)).toMatchObject({ status: 'completed' });
    }
  }, 60_000);

  it('forwards a redirect, a hang-up and a participant mute: the owner’s answer, and they take effect', async () => {
    /** A forwarded write's answer beside the owner's own rendering of the call just after it. */
    const forwarded = async (id: string, path: string, body: string, owner: string, read: string) => {
      const answer = await send(url(id), path, body);
      const local = await send(url(owner), read);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(local.headers.get('content-type'));
      const json = (await answer.json()) as Record<string, unknown>;
      expect(same(json)).toEqual(same(await local.json()));
      return json;
    };

    // Url: the call runs the new document on its owner.
    const moved = await place('n1', HOLD);
    await forwarded(
      'n2',
      `${ROOT}/Calls/${moved}.json`,
      `Url=${encodeURIComponent(`${documents}/redirected`)}`,
      'n1',
      `${ROOT}/Calls/${moved}.json`,
    );
    await eventually('the redirected document fetched', async () => {
      await json(url('n1'), '/sim/Advance', 'Seconds=1');
      return fetched.some((f) => f.path === '/redirected' && f.callSid === moved) ? true : undefined;
    });
    expect(await json(url('n3'), `${ROOT}/Calls/${moved}.json`)).toMatchObject({ status: 'in-progress' });
    // Status=completed: the owner hangs up, and the answer is its record of the ended call.
    const ended = await forwarded(
      'n3',
      `${ROOT}/Calls/${moved}.json`,
      'Status=completed',
      'n1',
      `${ROOT}/Calls/${moved}.json`,
    );
    expect(ended).toMatchObject({ status: 'completed', InstanceId: 'n1' });

    // The platform's participant mute (`Mute`) on a conference of n1, asked of n2.
    const member = await place('n1', CONFERENCE);
    const rooms = (await json(url('n1'), `${ROOT}/Conferences.json?FriendlyName=room&Status=in-progress`))
      .conferences as Array<{ sid: string }>;
    expect(rooms).toHaveLength(1);
    const participant = `${ROOT}/Conferences/${rooms[0]?.sid}/Participants/${member}.json`;
    expect(await json(url('n1'), participant)).toMatchObject({ muted: false });
    await forwarded('n2', participant, 'Mute=true', 'n1', `${ROOT}/Calls/${member}.json`);
    expect(await json(url('n1'), participant)).toMatchObject({ call_sid: member, muted: true });
    expect((await send(url('n3'), `${ROOT}/Calls/${member}.json`, 'Status=completed')).status).toBe(200);
  }, 60_000);

  it('closes a killed node’s calls and queue members on a survivor, goes on, and lets the node rejoin', async () => {
    const held = await place('n3', HOLD);
    const ghost = await place('n3', WAIT);
    const survivor = await place('n1', WAIT);
    await waiting([ghost, survivor]);
    // Answered in the shared records too (a node commits a turn of writes at a time).
    await eventually('the killed node’s calls recorded answered', async () => {
      const records = [
        await json(url('n1'), `${ROOT}/Calls/${held}.json`),
        await json(url('n1'), `${ROOT}/Calls/${ghost}.json`),
      ];
      return records.every((r) => r.status === 'in-progress') ? true : undefined;
    });

    const killed = nodes.get('n3') as ServeProcess;
    killed.child.kill('SIGKILL');
    await exitOf(killed.child);
    // Its heartbeat held a while longer (as in the TTL after a death): a write to its call finds
    // the owner alive but unreachable, and is answered 503 with Retry-After.
    const heartbeat = `${prefix}:node:n3`;
    await redis.set(heartbeat, killed.url, 'PX', 60_000);
    const early = await send(url('n2'), `${ROOT}/Calls/${held}.json`, 'Status=completed');
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('10');
    expect(await early.json()).toMatchObject({ code: 20503 });
    // Once the heartbeat has expired, the same write finds the call closed.
    await redis.del(heartbeat);
    const answer = await eventually('the held call to be closed', async () => {
      const r = await send(url('n2'), `${ROOT}/Calls/${held}.json`, 'Status=completed');
      return r.status === 503 ? undefined : r;
    });
    expect(answer.status).toBe(409);
    expect(await answer.json()).toMatchObject({ code: 21220 });

    for (const id of ['n1', 'n2']) {
      expect(await json(url(id), `${ROOT}/Calls/${held}.json`)).toMatchObject({
        status: 'completed',
        InstanceId: 'n3',
      });
      expect(await json(url(id), `${ROOT}/Calls/${ghost}.json`)).toMatchObject({ status: 'completed' });
      const notes = (await json(url(id), `${ROOT}/Notifications.json?PageSize=100`)).notifications as Array<
        Record<string, unknown>
      >;
      const interrupted = notes.filter((n) => n.error_code === '12401' || n.error_code === 12401);
      expect(interrupted.map((n) => n.call_sid).sort()).toEqual([ghost, held].sort());
    }
    // Its member left the queue; the survivor's moved up.
    expect(await members()).toEqual([survivor]);
    const took = [...nodes.values()].filter((n) => `${n.out()}${n.err()}`.includes('took over a dead node'));
    expect(took).toHaveLength(1);

    // The others go on: a dialer meets the survivor's member, not the ghost.
    await place('n1', TAKE);
    await waiting([]);
    const next = await place('n2', WAIT);
    await waiting([next]);

    // The node rejoins under its name with nothing left to close.
    const back = await start('n3');
    expect(back.out()).not.toContain('left live by the previous run');
    // Under a new epoch: 1 its first run, 2 the survivor's fencing, 3 this run.
    expect(await redis.hget(`${prefix}:nodes`, 'n3')).toBe(`3 ${back.url}`);
    const notes = (await json(back.url, `${ROOT}/Notifications.json?PageSize=100`))
      .notifications as unknown[];
    expect(same(notes)).toEqual(
      same((await json(url('n1'), `${ROOT}/Notifications.json?PageSize=100`)).notifications),
    );
  }, 90_000);
});
