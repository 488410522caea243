/**
 * Queue matches per second through the Redis queue store with 1, 2 and 4 node processes, each
 * running arrivals on both sides of one shared queue (through the engine's `QueueMatcher`, as a
 * node does), beside a floor measured in the same run: plain Redis `INCR` round trips per second
 * from as many processes with as many requests in flight. The ratio arrivals/INCRs says how close
 * an arrival comes to a bare round trip; Redis commands per arrival are counted (goal <= 2).
 * Skips with one line when no Redis server answers.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { RedisQueueStore } from '../src/cluster/redis-queue-store.js';
import { QueueMatcher } from '../src/queue/matcher.js';
import { seededQueueSids } from '../src/queue/sid.js';

const REDIS_URL =
  process.env.RCML_BENCH_REDIS_URL ?? process.env.RCML_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNT = `AC${'b'.repeat(32)}`;
const SECONDS = 2;
/** Arrivals in flight per process (calls of one node arriving at once). */
const IN_FLIGHT = 8;
const PROCESSES = [1, 2, 4];

interface WorkerResult {
  ops: number;
  matches: number;
  commands: number;
}

/** Counts the commands a connection sends (each is one round trip, pipelined or not). */
function counted(redis: Redis): () => number {
  let sent = 0;
  const original = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    sent++;
    return original(...args);
  }) as Redis['sendCommand'];
  return () => sent;
}

/** One node process: waits for "go" on stdin, runs `mode` for SECONDS, prints its counts. */
async function worker(mode: string, prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  const matcher = new QueueMatcher({
    store: new RedisQueueStore(redis, prefix),
    clock: () => Date.now(),
    newSid: seededQueueSids(process.pid),
  });
  if (mode === 'queue') await matcher.queue(ACCOUNT, 'bench'); // loads the scripts
  await redis.ping();
  const commands = counted(redis);
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const until = performance.now() + SECONDS * 1000;
  const result: WorkerResult = { ops: 0, matches: 0, commands: 0 };
  const loop = async (n: number) => {
    for (let i = 0; performance.now() < until; i++) {
      if (mode === 'incr') await redis.incr(`${prefix}:floor`);
      else {
        const side = (i + n) % 2 === 0 ? 'enqueued' : 'dialer';
        const callSid = `CA${process.pid}x${n}x${i}`;
        const out = await matcher.arrive({ accountSid: ACCOUNT, queueName: 'bench', callSid, side });
        if (out.status === 'matched') result.matches++;
      }
      result.ops++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, n) => loop(n)));
  result.commands = commands();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  redis.disconnect();
}

/** Starts `n` worker processes, lets them go together, and sums their counts. */
async function round(mode: 'queue' | 'incr', n: number, prefix: string): Promise<WorkerResult> {
  const self = fileURLToPath(import.meta.url);
  const workers = Array.from({ length: n }, () => {
    const child = spawn(process.execPath, ['--import', 'tsx', self, 'worker', mode, prefix], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => {
      const line = await lines.next();
      if (line.done) throw new Error(`bench worker exited ${child.exitCode}`);
      return line.value;
    };
    return { child, next };
  });
  await Promise.all(workers.map((w) => w.next())); // all ready
  for (const w of workers) w.child.stdin.end('go\n');
  const results = await Promise.all(workers.map(async (w) => JSON.parse(await w.next()) as WorkerResult));
  return {
    ops: results.reduce((a, r) => a + r.ops, 0),
    matches: results.reduce((a, r) => a + r.matches, 0),
    commands: results.reduce((a, r) => a + r.commands, 0),
  };
}

export async function run(): Promise<void> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    probe.disconnect();
    console.log(`skipped: no Redis server at ${REDIS_URL} (${err instanceof Error ? err.message : err})`);
    return;
  }
  const prefix = `rcml_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  try {
    console.log(`${SECONDS} s per round, ${IN_FLIGHT} arrivals in flight per process`);
    for (const n of PROCESSES) {
      const floor = await round('incr', n, `${prefix}_${n}`);
      const queue = await round('queue', n, `${prefix}_${n}`);
      const arrivals = queue.ops / SECONDS;
      const incrs = floor.ops / SECONDS;
      console.log(
        `${n} process${n > 1 ? 'es' : ''}: ${(queue.matches / SECONDS).toFixed(0)} matches/s ` +
          `(${arrivals.toFixed(0)} arrivals/s), floor ${incrs.toFixed(0)} INCR/s, ` +
          `ratio ${(arrivals / incrs).toFixed(2)}, ${(queue.commands / queue.ops).toFixed(2)} Redis round trips per arrival`,
      );
    }
  } finally {
    const keys = await probe.keys(`${prefix}_*`);
    if (keys.length > 0) await probe.del(...keys);
    probe.disconnect();
  }
}

if (process.argv[2] === 'worker' && process.argv[1] === fileURLToPath(import.meta.url)) {
  await worker(process.argv[3], process.argv[4]);
}
