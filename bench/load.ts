/**
 * Load harness benchmark (`npm run bench -- load`): `runLoad` on the real clock against a
 * trivial app (one `<Hangup/>` document per call) in another process, beside raw undici POSTs
 * to the same app at the same concurrency (the floor). Each round measures both back to back;
 * the figure is the median of the rounds. Then an IVR (a Gather, a key, an action document with
 * a one-second Pause) at a fixed 1,000 calls/s on the real clock: achieved rate, errors, webhook
 * latency, heap and event-loop lag, the figures that showed stalls at high rates.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { runLoad } from '../src/load/index.js';

const APP = `
const http = require('node:http');
const docs = {
  '/voice': '<Response><Hangup/></Response>',
  '/ivr': '<Response><Gather numDigits="1" action="/menu" timeout="2"><Pause length="1"/></Gather></Response>',
  '/menu': '<Response><Pause length="1"/><Hangup/></Response>',
};
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'text/xml' }); res.end(docs[req.url.split('?')[0]] || ''); });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startApp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', APP], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${Number(line.toString().trim())}/voice`, child };
}

const FORM =
  'CallSid=CA0123456789abcdef0123456789abcdef&AccountSid=AC0123456789abcdef0123456789abcdef&From=%2B19990000001&To=%2B15550100&CallStatus=ringing&ApiVersion=2012-04-24&Direction=inbound';

async function rawUndici(url: string, requests: number, concurrency: number): Promise<number> {
  const agent = new Agent();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) {
        const res = await request(url, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: FORM,
        });
        await res.body.text();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await agent.close();
  return requests / seconds;
}

async function harness(url: string, calls: number, concurrency: number): Promise<number> {
  const report = await runLoad({ voiceUrl: url, calls, concurrency });
  if (report.errors.total > 0) throw new Error(`harness run had errors: ${JSON.stringify(report.errors)}`);
  return report.requests.perSecond;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const ROUNDS = Number(process.env.RCML_BENCH_ROUNDS ?? 5);

export async function run(): Promise<void> {
  const calls = Number(process.env.RCML_BENCH_CALLS ?? 5_000);
  const concurrency = 32;
  const { url, child } = await startApp();
  try {
    await harness(url, 1_000, concurrency); // warm-up
    await rawUndici(url, 1_000, concurrency);
    const rates: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      rates.push(await harness(url, calls, concurrency));
      floors.push(await rawUndici(url, calls, concurrency));
    }
    const rate = median(rates);
    const floor = median(floors);
    const ratio = rate / floor;
    console.log(
      `rcml load harness: ${fmt(rate)} requests/s (one call = one request; ${fmt(calls)} calls, concurrency ` +
        `${concurrency}, median of ${ROUNDS} rounds); floor, raw undici POSTs: ${fmt(floor)} requests/s; ` +
        `ratio ${ratio.toFixed(2)} (goal >= 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'})`,
    );

    const fixed = await runLoad({
      voiceUrl: url.replace(/voice$/, 'ivr'),
      duration: 4,
      rate: 1_000,
      concurrency: 10_000,
      party: { digits: [{ at: 0.5, keys: '1' }] },
    });
    const lag = fixed.engine.eventLoopLag;
    console.log(
      `real clock, IVR at 1,000 calls/s for 4 s: ${fmt(fixed.calls.ended)} calls, ${fixed.requests.total} requests, ` +
        `${fixed.calls.dropped} dropped, ${fixed.errors.total} errors; webhook p50 ${fixed.latency.all.p50.toFixed(1)} ms, ` +
        `p99 ${fixed.latency.all.p99.toFixed(1)} ms, max ${fixed.latency.all.max.toFixed(1)} ms; heap max ` +
        `${fixed.engine.heapUsedMaxMb} MB; event-loop lag p99 ${lag.p99} ms, max ${lag.max} ms`,
    );
  } finally {
    child.kill();
  }
}
