/**
 * Engine benchmark: in-process IVR calls/s on the virtual clock (floor: parsing the same
 * documents), a two-leg Dial flow beside it, the same IVR over real HTTP (floor: raw undici
 * requests), and heap per call for calls parked in a long Pause. Every rate is the median of
 * several rounds after a warm-up, each round measuring the figure and its floor back to back,
 * so that a busy machine moves both alike. RCML_BENCH_ONLY=memory runs only the heap figure.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createEngine } from '../src/engine/index.js';
import { parseRcml } from '../src/rcml/parse.js';

const DOCS: Record<string, string> = {
  '/ivr':
    '<Response><Say>Welcome</Say><Gather action="/menu" numDigits="1"><Say>Press 1</Say></Gather></Response>',
  '/menu': '<Response><Redirect>/end</Redirect></Response>',
  '/end': '<Response><Say>Good bye</Say><Hangup/></Response>',
};
const PARTY = { digits: [{ at: 1, keys: '1' }] };

async function ivrInProcess(calls: number, batch: number): Promise<number> {
  const engine = createEngine({ seed: 1, retainCalls: false });
  for (const [path, body] of Object.entries(DOCS)) {
    engine.registerHandler(`http://app${path}`, () => ({ status: 200, contentType: 'text/xml', body }));
  }
  engine.setNumber('+1000', { voiceUrl: 'http://app/ivr' });
  engine.setDefaultParty(PARTY);
  const t0 = performance.now();
  for (let done = 0; done < calls; done += batch) {
    for (let i = 0; i < batch; i++) engine.incomingCall('+1555', '+1000');
    await engine.runUntilIdle();
  }
  const seconds = (performance.now() - t0) / 1000;
  await engine.close();
  return calls / seconds;
}

/** Two-leg flow: Dial, the callee answers, 60 s bridge, the callee hangs up. */
async function dialInProcess(calls: number, batch: number): Promise<number> {
  const engine = createEngine({ seed: 1, retainCalls: false });
  const body = '<Response><Dial timeout="20">+1999</Dial></Response>';
  engine.registerHandler('http://app/dial', () => ({ status: 200, contentType: 'text/xml', body }));
  engine.setNumber('+1000', { voiceUrl: 'http://app/dial' });
  engine.setParty('+1999', { answerAfter: 2, hangupAfter: 60 });
  const t0 = performance.now();
  for (let done = 0; done < calls; done += batch) {
    for (let i = 0; i < batch; i++) engine.incomingCall('+1555', '+1000');
    await engine.runUntilIdle();
  }
  const seconds = (performance.now() - t0) / 1000;
  if (engine.liveCount !== 0) throw new Error(`${engine.liveCount} calls still live after the two-leg run`);
  await engine.close();
  return calls / seconds;
}

function parseFloor(sets: number): number {
  const docs = Object.values(DOCS);
  const t0 = performance.now();
  for (let i = 0; i < sets; i++) for (const d of docs) parseRcml(d);
  return sets / ((performance.now() - t0) / 1000);
}

/**
 * The last form body the server got per path: the floor sends the engine's own bodies (about
 * 270 bytes of call parameters), not a shorter stand-in.
 */
const sentBodies: Record<string, string> = {};

async function withServer<T>(fn: (base: string) => Promise<T>): Promise<T> {
  const server = createServer((req, res) => {
    let form = '';
    req.setEncoding('latin1');
    req.on('data', (chunk: string) => {
      form += chunk;
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      sentBodies[path] = form;
      const body = DOCS[path];
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/xml' });
      res.end(body ?? '');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function ivrHttp(base: string, calls: number, batch: number): Promise<number> {
  const engine = createEngine({ seed: 1, retainCalls: false });
  engine.setNumber('+1000', { voiceUrl: `${base}/ivr` });
  engine.setDefaultParty(PARTY);
  const t0 = performance.now();
  for (let done = 0; done < calls; done += batch) {
    for (let i = 0; i < batch; i++) engine.incomingCall('+1555', '+1000');
    await engine.runUntilIdle();
  }
  const seconds = (performance.now() - t0) / 1000;
  await engine.close();
  return calls / seconds;
}

async function rawUndici(base: string, requests: number, batch: number): Promise<number> {
  const agent = new Agent();
  const paths = Object.keys(DOCS);
  const t0 = performance.now();
  for (let done = 0; done < requests; done += batch) {
    await Promise.all(
      Array.from({ length: batch }, async (_, i) => {
        const path = paths[(done + i) % 3];
        const res = await request(`${base}${path}`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: sentBodies[path],
        });
        await res.body.text();
      }),
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  await agent.close();
  return requests / seconds;
}

async function parkedHeap(calls: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const engine = createEngine({ seed: 1 });
  const body = '<Response><Say>Please hold</Say><Pause length="86400"/></Response>';
  engine.registerHandler('http://app/park', () => ({ status: 200, contentType: 'text/xml', body }));
  engine.setNumber('+1000', { voiceUrl: 'http://app/park' });
  gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < calls; i++) engine.incomingCall('+1555', '+1000');
  await engine.advance(10);
  gc?.();
  const after = process.memoryUsage().heapUsed;
  if (engine.liveCount !== calls) throw new Error(`expected ${calls} parked calls, got ${engine.liveCount}`);
  await engine.close();
  return (after - before) / calls;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

const ROUNDS = Number(process.env.RCML_BENCH_ROUNDS ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs `round` ROUNDS times and gives each figure's median. No forced collection in between:
 * it shrinks the young generation and slows the next round's HTTP work by a third.
 */
async function rounds<K extends string>(round: () => Promise<Record<K, number>>): Promise<Record<K, number>> {
  const runs: Array<Record<K, number>> = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await round());
  const keys = Object.keys(runs[0]) as K[];
  return Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as Record<K, number>;
}

const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');
/** In-process IVR calls/s against the parse floor's sets/s (first set as 40,000 against 288,000). */
const IVR_GOAL_RATIO = 0.3;
const PARKED_GOAL_KIB = 3;

export async function run(): Promise<void> {
  if (process.env.RCML_BENCH_ONLY === 'memory') return reportParkedHeap();
  const calls = Number(process.env.RCML_BENCH_CALLS ?? 20_000);
  await ivrInProcess(10_000, 1_000); // warm-up
  parseFloor(10_000);
  const ivr = await rounds(async () => ({
    rate: await ivrInProcess(calls, 1_000),
    floor: parseFloor(calls),
  }));
  // Held as a ratio to the floor, so that it means the same on a slower or busier machine.
  const ivrRatio = ivr.rate / ivr.floor;
  console.log(
    `in-process IVR: ${fmt(ivr.rate)} calls/s (median of ${ROUNDS} rounds of ${fmt(calls)} calls); ` +
      `floor, parsing its 3 documents: ${fmt(ivr.floor)} sets/s; ratio ${ivrRatio.toFixed(2)} ` +
      `(goal >= ${IVR_GOAL_RATIO.toFixed(2)}: ${verdict(ivrRatio >= IVR_GOAL_RATIO)})`,
  );

  const legs = Math.max(1_000, Math.floor(calls / 2));
  await dialInProcess(2_000, 1_000); // warm-up
  const dial = await rounds(async () => ({
    rate: await dialInProcess(legs, 1_000),
    single: await ivrInProcess(legs, 1_000),
  }));
  console.log(
    `in-process two-leg Dial (answer, 60 s bridge, hang-up): ${fmt(dial.rate)} calls/s; ` +
      `single-leg IVR in the same rounds: ${fmt(dial.single)} calls/s; ratio ${(dial.rate / dial.single).toFixed(2)}`,
  );

  await withServer(async (base) => {
    const httpCalls = 2_000;
    await ivrHttp(base, 500, 100); // warm-up
    await rawUndici(base, 1_500, 100);
    const http = await rounds(async () => ({
      rate: await ivrHttp(base, httpCalls, 100),
      raw: await rawUndici(base, httpCalls * 3, 100),
    }));
    const ratio = (http.rate * 3) / http.raw;
    console.log(
      `real HTTP IVR: ${fmt(http.rate)} calls/s = ${fmt(http.rate * 3)} requests/s; floor, raw undici: ` +
        `${fmt(http.raw)} requests/s; ratio ${ratio.toFixed(2)} (goal >= 0.85: ${verdict(ratio >= 0.85)})`,
    );
  });
  await reportParkedHeap();
}

async function reportParkedHeap(): Promise<void> {
  const parked = 100_000;
  const perCall = await parkedHeap(parked);
  const hasGc = typeof (globalThis as { gc?: unknown }).gc === 'function';
  const kib = perCall / 1024;
  console.log(
    `memory: ${fmt(parked)} calls parked in Pause: ${kib.toFixed(2)} KiB heap per call ` +
      `(goal <= ${PARKED_GOAL_KIB} KiB: ${verdict(kib <= PARKED_GOAL_KIB)})${hasGc ? '' : ' (run node with --expose-gc for an exact figure)'}`,
  );
}
