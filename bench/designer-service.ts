/**
 * Visual Designer service: requests/s of a built menu application's controller over HTTP
 * (authenticated, a menu choice rendered to RCML) beside a trivial hono route served the same
 * way (same client, connections and duration, each warmed up, median of a few rounds), and the
 * time to build a 200-module project beside loading (validating) the same project alone.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { Pool } from 'undici';
import { createApp } from '../src/api/app.js';
import { createDesignerService } from '../src/api/designer/service.js';
import { TEMPLATES } from '../src/api/designer/templates/index.js';
import { loadProject } from '../src/designer/load.js';
import { newAccount } from '../src/store/credentials.js';
import { createMemoryDesignerStore } from '../src/store/designer/memory.js';
import { createMemoryStore } from '../src/store/memory.js';

const SECONDS = 2;
const WARM_UP_SECONDS = 0.5;
const ROUNDS = 3;
const CONCURRENCY = 16;
const MODULES = 200;
const BUILDS = 9;
const ACCOUNT = `AC${'a'.repeat(32)}`;
const TOKEN = 'bench-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;

async function throughput(origin: string, path: string, headers: Record<string, string>, seconds: number) {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  let done = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await pool.request({ method: 'GET', path, headers });
      if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}`);
      await res.body.arrayBuffer();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  return done / elapsed;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function listen(fetch: (req: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A project of `n` modules, each a one-key menu leading to the next, with a log and a say. */
function bigProject(n: number): Record<string, unknown> {
  let step = 0;
  const s = (kind: string, fields: Record<string, unknown>) => ({
    kind,
    name: `step${++step}`,
    label: kind,
    title: kind,
    ...fields,
  });
  const nodes = Array.from({ length: n }, (_, i) => ({
    name: i === 0 ? 'start' : `module${i}`,
    label: `Module ${i}`,
    kind: 'voice',
    steps: [
      s('log', { message: `entering ${i} for $core_From` }),
      s('gather', {
        gatherType: 'menu',
        method: 'POST',
        numDigits: 1,
        steps: [s('say', { phrase: `This is module ${i}. Press 1 to go on.` })],
        menu: { mappings: [{ digits: '1', next: `module${(i + 1) % n || 1}` }], speechMappings: [] },
      }),
      s('say', { phrase: 'Goodbye.' }),
    ],
  }));
  return {
    header: { projectKind: 'voice', startNodeName: 'start', version: '1.15', owner: '' },
    nodes,
    lastStepId: step,
    lastNodeId: n,
  };
}

export async function run(): Promise<void> {
  const store = createMemoryStore();
  await store.accounts.put(newAccount(ACCOUNT, { friendlyName: 'bench', now: 0, authToken: TOKEN }).account);
  const designer = createDesignerService({ store, designer: createMemoryDesignerStore() });
  const app = createApp({ store, designer });
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await app.fetch(
      new Request(`http://bench${path}`, {
        ...init,
        headers: { authorization: AUTH, ...(init.headers ?? {}) },
      }),
    );
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const ivr = TEMPLATES.find((t) => t.name === 'IVR menu')?.id as string;
  const menu = (
    await call(`/visual-designer/services/projects?name=menu&template=${ivr}`, { method: 'POST' })
  ).sid;

  // Build time of a 200-module project beside validating it alone.
  const project = bigProject(MODULES);
  const big = (await call('/visual-designer/services/projects?name=big', { method: 'POST' })).sid;
  await call(`/visual-designer/services/projects/${big}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(project),
  });
  const builds: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < BUILDS; i++) {
    let t = performance.now();
    await call(`/visual-designer/services/projects/${big}/build?type=voice`, { method: 'POST' });
    builds.push(performance.now() - t);
    t = performance.now();
    if (!loadProject(project).ok) throw new Error('the benchmark project does not load');
    loads.push(performance.now() - t);
  }
  const [build, load] = [median(builds), median(loads)];
  console.log(
    `build of a ${MODULES}-module project (${project.lastStepId as number} steps), median of ${BUILDS}: ` +
      `${build.toFixed(1)} ms; floor (loading/validating it alone): ${load.toFixed(1)} ms; ratio ${(build / load).toFixed(2)}`,
  );

  const served = await listen(app.fetch);
  const trivial = await listen(new Hono().get('/ping', (c) => c.json({ ok: true })).fetch);
  const path = `/visual-designer/services/apps/${menu}/controller?target=start.step1.handle&Digits=1&From=%2B15550001`;
  const routes: Array<{ name: string; origin: string; path: string; headers: Record<string, string> }> = [
    { name: 'trivial', origin: trivial.origin, path: '/ping', headers: {} },
    { name: 'controller', origin: served.origin, path, headers: { authorization: AUTH } },
  ];
  const figures = new Map<string, number[]>(routes.map((r) => [r.name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const r of routes) {
        await throughput(r.origin, r.path, r.headers, WARM_UP_SECONDS);
        figures.get(r.name)?.push(await throughput(r.origin, r.path, r.headers, SECONDS));
      }
    }
  } finally {
    await served.close();
    await trivial.close();
  }
  const [floor, ours] = ['trivial', 'controller'].map((n) => median(figures.get(n) ?? []));
  console.log(
    `designer controller (built IVR menu, choice 1, authenticated), median of ${ROUNDS} rounds of ${SECONDS} s, ` +
      `${CONCURRENCY} connections:\n  trivial hono route: ${floor.toFixed(0)} req/s\n` +
      `  controller: ${ours.toFixed(0)} req/s = ${((ours / floor) * 100).toFixed(1)}% of the trivial route (goal >= 40%)`,
  );
}
