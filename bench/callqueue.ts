/**
 * Call Queuing product: requests/s of `POST /callqueue/provisioning` and of queue-state reads
 * (`GET /callqueue/queues/{sid}` with 1,000 customers waiting), each beside a trivial hono route
 * served the same way (same client, connections and duration), medians of a few rounds; and the
 * virtual-clock throughput of the whole product flow (HTTP-provisioned numbers, status callbacks
 * landing on the callback endpoint, queue steps recorded) with 10,000 customers and 100 agents,
 * beside as many plain calls through the same server setup.
 */
import { Hono } from 'hono';
import { Pool } from 'undici';
import { createEngineApp, type EngineApp } from '../src/api/engine-server.js';
import type { RcmlHandler } from '../src/engine/types.js';
import { newAccount } from '../src/store/credentials.js';
import { createMemoryStore } from '../src/store/memory.js';
import { listen, median } from './api.js';

const ACCOUNT = `AC${'c'.repeat(32)}`;
const TOKEN = 'bench-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const BASE = 'http://bench.test';
const SECONDS = 2;
const ROUNDS = 3;
const CONCURRENCY = 16;
const WAITING = 1_000;
const CUSTOMERS = Number(process.env.RCML_CALLQUEUE_CUSTOMERS ?? 10_000);
const AGENTS = 100;

const doc =
  (body: string): RcmlHandler =>
  () => ({ status: 200, contentType: 'text/xml', body: `<Response>${body}</Response>` });

async function server(): Promise<EngineApp> {
  const store = createMemoryStore();
  await store.accounts.put(newAccount(ACCOUNT, { friendlyName: 'bench', now: 0, authToken: TOKEN }).account);
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock: 'virtual',
    seed: 1,
    engine: { queues: { maxSize: 5000 } },
  });
  const { app, engine } = built;
  // Status callbacks reach the app's own callback endpoint in process.
  engine.registerHandler(`${BASE}/callqueue/callback`, async (req) => {
    const res = await app.fetch(
      new Request(req.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(req.params).toString(),
      }),
    );
    return { status: res.status, contentType: 'text/plain', body: '' };
  });
  engine.registerHandler(`${BASE}/app/agent`, doc('<Enqueue rejoin="true">support</Enqueue>'));
  engine.registerHandler(`${BASE}/app/customer`, doc('<Dial timeout="3600"><Queue>support</Queue></Dial>'));
  engine.registerHandler(`${BASE}/app/plain`, doc('<Pause length="5"/>'));
  return built;
}

async function provision(app: EngineApp['app'], phoneNumber: string, path: string): Promise<void> {
  const res = await app.fetch(
    new Request(`${BASE}/callqueue/provisioning`, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ applicationUrl: `${BASE}/app/${path}`, phoneNumber }),
    }),
  );
  if (res.status !== 200) throw new Error(`provisioning answered ${res.status}`);
}

/** Requests/s over keep-alive connections for `SECONDS`; `request(i)` builds the i-th request. */
async function throughput(
  origin: string,
  request: (i: number) => {
    method: 'GET' | 'POST';
    path: string;
    body?: string;
    headers: Record<string, string>;
  },
): Promise<number> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  let done = 0;
  let next = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const r = request(next++);
      const res = await pool.request(r);
      if (res.statusCode !== 200) throw new Error(`${r.method} ${r.path} answered ${res.statusCode}`);
      await res.body.arrayBuffer();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  return done / elapsed;
}

async function requestRates(): Promise<void> {
  const built = await server();
  const ours = await listen(built.app.fetch);
  const trivial = await listen(
    new Hono()
      .get('/ping', (c) => c.json({ ok: true }))
      .post('/ping', async (c) => c.json(await c.req.json())).fetch,
  );
  try {
    // 1,000 customers waiting in `support`.
    await provision(built.app, '+19990000', 'customer');
    for (let i = 0; i < WAITING; i++) built.engine.incomingCall(`+1700${i}`, '+19990000');
    await built.engine.advance(1);
    const [queue] = await built.engine.listQueues(ACCOUNT);
    const state = await built.engine.inspectQueue(queue.sid);
    if (state?.dialer.size !== WAITING)
      throw new Error(`expected ${WAITING} waiting, got ${state?.dialer.size}`);

    const json = { Authorization: AUTH, 'Content-Type': 'application/json' };
    let round = 0;
    const provisioningBody = (i: number) =>
      JSON.stringify({
        applicationUrl: `${BASE}/app/customer`,
        phoneNumber: `+1${800 + round}${String(i).padStart(7, '0')}`,
      });
    const figures = {
      provision: [] as number[],
      provisionFloor: [] as number[],
      read: [] as number[],
      readFloor: [] as number[],
    };
    for (; round < ROUNDS; round++) {
      figures.provisionFloor.push(
        await throughput(trivial.origin, (i) => ({
          method: 'POST',
          path: '/ping',
          body: provisioningBody(i),
          headers: json,
        })),
      );
      figures.provision.push(
        await throughput(ours.origin, (i) => ({
          method: 'POST',
          path: '/callqueue/provisioning',
          body: provisioningBody(i),
          headers: json,
        })),
      );
      figures.readFloor.push(
        await throughput(trivial.origin, () => ({ method: 'GET', path: '/ping', headers: {} })),
      );
      figures.read.push(
        await throughput(ours.origin, () => ({
          method: 'GET',
          path: `/callqueue/queues/${queue.sid}`,
          headers: { Authorization: AUTH },
        })),
      );
    }
    const [p, pf, r, rf] = [figures.provision, figures.provisionFloor, figures.read, figures.readFloor].map(
      median,
    );
    console.log(
      `POST /callqueue/provisioning, median of ${ROUNDS} rounds of ${SECONDS} s, ${CONCURRENCY} connections\n` +
        `  trivial hono POST route: ${pf.toFixed(0)} req/s\n` +
        `  provisioning: ${p.toFixed(0)} req/s; ratio ${((p / pf) * 100).toFixed(0)}% of the floor`,
    );
    console.log(
      `GET /callqueue/queues/{sid} with ${WAITING} members waiting\n` +
        `  trivial hono GET route: ${rf.toFixed(0)} req/s\n` +
        `  queue state: ${r.toFixed(0)} req/s; ratio ${((r / rf) * 100).toFixed(1)}% of the floor`,
    );
  } finally {
    await ours.close();
    await trivial.close();
    await built.close();
  }
}

/** Simulated calls/s of customers calling every 0.1 s and talking 5 s, with or without the product. */
async function flow(product: boolean): Promise<number> {
  const built = await server();
  const { engine } = built;
  engine.setDefaultParty({ outcome: 'answer', hangupAfter: 5 });
  const start = process.hrtime.bigint();
  if (product) {
    await provision(built.app, '+19990001', 'agent');
    await provision(built.app, '+19990002', 'customer');
    for (let i = 0; i < AGENTS; i++) {
      const from = `+1600${i}`;
      engine.setParty(from, { outcome: 'answer' });
      engine.incomingCall(from, '+19990001');
    }
    await engine.advance(1);
  } else {
    engine.setNumber('+19990003', { voiceUrl: `${BASE}/app/plain` });
  }
  const to = product ? '+19990002' : '+19990003';
  for (let i = 0; i < CUSTOMERS; i++) {
    engine.incomingCall(`+1700${i}`, to);
    await engine.advance(0.1);
  }
  await engine.advance(60);
  if (product) {
    const [queue] = await engine.listQueues(ACCOUNT);
    const state = await engine.inspectQueue(queue.sid);
    if ((state?.enqueued.servedCount ?? 0) + (state?.dialer.servedCount ?? 0) < CUSTOMERS) {
      throw new Error('not every customer was served');
    }
  }
  await built.close();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return (CUSTOMERS + (product ? AGENTS : 0)) / seconds;
}

export async function run(): Promise<void> {
  await requestRates();
  const floor = await flow(false);
  const ours = await flow(true);
  console.log(
    `Call Queuing flow on the virtual clock: ${CUSTOMERS} customers (one every 0.1 s, talking 5 s), ${AGENTS} agents (rejoin)\n` +
      `  floor (as many plain calls, same server): ${floor.toFixed(0)} calls/s\n` +
      `  product (provisioned numbers, callbacks, recorded queue steps): ${ours.toFixed(0)} calls/s; ratio ${((ours / floor) * 100).toFixed(0)}% of the floor`,
  );
}
