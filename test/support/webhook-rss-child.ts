/**
 * Run as a child process by test/engine/webhook-memory.test.ts (or by hand:
 * `node --import tsx test/support/webhook-rss-child.ts <base-url> [calls]`): places calls whose
 * document and Play media are a webhook streaming 1 GiB, and prints the peak RSS of this
 * process while they run, as JSON.
 */
import { createEngine } from '../../src/engine/index.js';

const base = process.argv[2];
const calls = Number(process.argv[3] ?? 3);
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 2);
const engine = createEngine({ seed: 1 });
engine.registerHandler('http://app.test/play', () => ({
  status: 200,
  contentType: 'text/xml',
  body: `<Response><Play>${base}/gib</Play></Response>`,
}));
for (let i = 0; i < calls; i++) {
  engine.createCall({ From: '+1', To: `+2${i}`, Url: `${base}/gib`, FallbackUrl: 'http://app.test/play' });
}
await engine.runUntilIdle();
await engine.close();
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const statuses = engine.listCalls().map((c) => c.status);
process.stdout.write(`${JSON.stringify({ peakRssBytes: peak, statuses })}\n`);
