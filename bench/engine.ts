/**
 * Engine benchmark: in-process IVR calls/s on the virtual clock (floor: parsing the same
 * documents), the same flow over real HTTP (floor: raw undici requests), and heap per call
 * for calls parked in a long Pause.
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

async function withServer<T>(fn: (base: string) => Promise<T>): Promise<T> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = DOCS[(req.url ?? '').split('?')[0]];
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
        const res = await request(`${base}${paths[(done + i) % 3]}`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'CallSid=CA0&From=%2B1555&To=%2B1000',
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

export async function run(): Promise<void> {
  await ivrInProcess(5_000, 1_000); // warm-up
  const calls = Number(process.env.RCML_BENCH_CALLS ?? 50_000);
  const engineRate = await ivrInProcess(calls, 1_000);
  const floor = parseFloor(calls);
  console.log(
    `in-process IVR: ${fmt(engineRate)} calls/s (goal >= 20,000); floor, parsing its 3 documents: ` +
      `${fmt(floor)} sets/s; ratio ${(engineRate / floor).toFixed(2)}`,
  );

  await dialInProcess(2_000, 1_000); // warm-up
  const dialRate = await dialInProcess(Math.max(1_000, Math.floor(calls / 2)), 1_000);
  console.log(
    `in-process two-leg Dial (answer, 60 s bridge, hang-up): ${fmt(dialRate)} calls/s; ` +
      `single-leg IVR above: ${fmt(engineRate)} calls/s; ratio ${(dialRate / engineRate).toFixed(2)}`,
  );

  await withServer(async (base) => {
    const httpCalls = 5_000;
    await ivrHttp(base, 500, 100); // warm-up
    const rate = await ivrHttp(base, httpCalls, 100);
    const raw = await rawUndici(base, httpCalls * 3, 100);
    console.log(
      `real HTTP IVR: ${fmt(rate)} calls/s = ${fmt(rate * 3)} requests/s; floor, raw undici: ${fmt(raw)} ` +
        `requests/s; ratio ${((rate * 3) / raw).toFixed(2)} (goal >= 0.50)`,
    );
  });

  const parked = 100_000;
  const perCall = await parkedHeap(parked);
  const hasGc = typeof (globalThis as { gc?: unknown }).gc === 'function';
  console.log(
    `memory: ${fmt(parked)} calls parked in Pause: ${(perCall / 1024).toFixed(2)} KiB heap per call ` +
      `(goal <= 10 KiB)${hasGc ? '' : ' (run node with --expose-gc for an exact figure)'}`,
  );
}
