/**
 * A full queue scenario on the virtual clock: 1,000 agents (Enqueue, rejoin) and 100,000
 * customers (Dial+Queue) calling in every 0.1 s, each talking 5 s. Prints simulated calls/s and
 * peak heap. Floor: as many plain calls (one Pause each, no queue) through the same engine
 * setup, measured in the same run.
 */
import { createEngine, type Engine } from '../src/engine/index.js';

const AGENTS = 1_000;
const CUSTOMERS = Number(process.env.RCML_QUEUE_CUSTOMERS ?? 100_000);
const APP = 'http://bench.test/';

function engine(): Engine {
  const e = createEngine({ seed: 1, retainCalls: false, queues: { maxSize: 5000 } });
  const doc = (body: string) => () => ({
    status: 200,
    contentType: 'text/xml',
    body: `<Response>${body}</Response>`,
  });
  e.registerHandler(`${APP}agent`, doc('<Enqueue rejoin="true">support</Enqueue>'));
  e.registerHandler(`${APP}customer`, doc('<Dial timeout="600"><Queue>support</Queue></Dial>'));
  e.registerHandler(`${APP}plain`, doc('<Pause length="5"/>'));
  e.setNumber('+1000', { voiceUrl: `${APP}agent` });
  e.setNumber('+2000', { voiceUrl: `${APP}customer` });
  e.setNumber('+3000', { voiceUrl: `${APP}plain` });
  e.setDefaultParty({ outcome: 'answer', hangupAfter: 5 });
  return e;
}

async function drive(to: string, withAgents: boolean): Promise<{ perSecond: number; peakHeap: number }> {
  const e = engine();
  let peakHeap = process.memoryUsage().heapUsed;
  const start = process.hrtime.bigint();
  if (withAgents) {
    for (let i = 0; i < AGENTS; i++) {
      const from = `+1600${i}`;
      e.setParty(from, { outcome: 'answer' });
      e.incomingCall(from, '+1000');
    }
    await e.advance(1);
  }
  for (let i = 0; i < CUSTOMERS; i++) {
    e.incomingCall(`+1700${i}`, to);
    await e.advance(0.1);
    if (i % 5000 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
  await e.advance(60);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  if (withAgents) {
    const q = await e.getQueue('support');
    if ((q?.enqueued.servedCount ?? 0) < CUSTOMERS)
      throw new Error(`only ${q?.enqueued.servedCount} customers served`);
  }
  await e.close();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { perSecond: (CUSTOMERS + (withAgents ? AGENTS : 0)) / seconds, peakHeap };
}

export async function runScenarioBench(): Promise<void> {
  const floor = await drive('+3000', false);
  const queued = await drive('+2000', true);
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
  console.log(
    `full queue scenario (${CUSTOMERS.toLocaleString('en')} customers, ${AGENTS.toLocaleString('en')} agents): ` +
      `${queued.perSecond.toFixed(0)} simulated calls/s, peak heap ${mb(queued.peakHeap)}` +
      ` | floor (plain calls, no queue): ${floor.perSecond.toFixed(0)} calls/s, peak heap ${mb(floor.peakHeap)}` +
      ` | ${(floor.perSecond / queued.perSecond).toFixed(2)}x floor time per call`,
  );
}
