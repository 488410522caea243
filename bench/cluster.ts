/**
 * Queue matches per second through the Redis queue store with 1 and 4 node processes, each
 * running arrivals on both sides (through the engine's `QueueMatcher`, as a node does, on a
 * connection set up as a node's), beside a floor measured in the same run: Redis `INCR` round
 * trips per second from as many processes, IN_FLIGHT at a time per process. Each measure is
 * taken REPEATS times, interleaved with the others, and its median printed. Two loads: one hot queue, and
 * IN_FLIGHT queues; each process keeps IN_FLIGHT arrivals in flight (the store's atomic arrival
 * orders them, so the matcher does not hold one queue's arrivals back for each other). An
 * arrival is one script (the queue looked up by name in it), and the arrivals a process makes
 * in one tick go up to four per script (`src/cluster/arrival-batch.ts`).
 * Redis commands per arrival are counted (each is one round trip), the node CPU (user + system)
 * per arrival and per INCR is printed, and the load average beside each figure (the machine may
 * be shared). RCML_BENCH_CPU_PROF=<dir> runs the arrival processes with `node --cpu-prof`.
 * Skips with one line when no Redis server answers.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { RedisQueueStore } from '../src/cluster/redis-queue-store.js';
import { QueueMatcher } from '../src/queue/matcher.js';
import { seededQueueSids } from '../src/queue/sid.js';
import { countCommands } from '../test/support/redis-commands.js';

const REDIS_URL =
  process.env.RCML_BENCH_REDIS_URL ?? process.env.RCML_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNT = `AC${'b'.repeat(32)}`;
const SECONDS = 2;
/** Work done uncounted before each round (each process alone, before they start together). */
const WARM_UP_SECONDS = 1;
/** Arrivals in flight per process (calls of one node arriving at once). */
const IN_FLIGHT = 8;
const PROCESSES = [1, 4];
/** Rounds of each measure; the median is printed. */
const REPEATS = 3;

/** The round of median rate. */
function median(rounds: WorkerResult[]): WorkerResult {
  return [...rounds].sort((a, b) => a.ops - b.ops)[Math.floor(rounds.length / 2)] as WorkerResult;
}

interface WorkerResult {
  ops: number;
  matches: number;
  commands: number;
  /** CPU time of the process (user + system) over the round, µs. */
  cpuUs: number;
}

type Mode = 'incr' | 'queue' | 'queues';

/** One node process: waits for "go" on stdin, runs `mode` for SECONDS, prints its counts. */
async function worker(mode: Mode, prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  const matcher = new QueueMatcher({
    store: new RedisQueueStore(redis, prefix),
    clock: () => Date.now(),
    newSid: seededQueueSids(process.pid),
  });
  const queueOf = (n: number) => (mode === 'queues' ? `bench${n}` : 'bench');
  // Creates the queues (and loads the scripts) before the clock starts.
  for (let n = 0; n < IN_FLIGHT; n++) await matcher.queue(ACCOUNT, queueOf(n));
  await redis.ping();
  /** Runs `mode` for `seconds` with IN_FLIGHT loops; `round` keeps each run's call sids apart. */
  const runFor = async (seconds: number, round: number): Promise<WorkerResult> => {
    const result: WorkerResult = { ops: 0, matches: 0, commands: 0, cpuUs: 0 };
    const until = performance.now() + seconds * 1000;
    const loop = async (n: number) => {
      for (let i = 0; performance.now() < until; i++) {
        if (mode === 'incr') await redis.incr(`${prefix}:floor`);
        else {
          const side = (i + n) % 2 === 0 ? 'enqueued' : 'dialer';
          const callSid = `CA${process.pid}x${round}x${n}x${i}`;
          const out = await matcher.arrive({ accountSid: ACCOUNT, queueName: queueOf(n), callSid, side });
          if (out.status === 'matched') result.matches++;
        }
        result.ops++;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, (_, n) => loop(n)));
    return result;
  };
  // The same work for a while first, uncounted: what is measured is the steady state, not the
  // compiler warming up to the code (the arrivals have more of it than an INCR).
  await runFor(WARM_UP_SECONDS, 0);
  const commands = countCommands(redis);
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const cpu = process.cpuUsage();
  const result = await runFor(SECONDS, 1);
  result.commands = commands();
  const used = process.cpuUsage(cpu);
  result.cpuUs = used.user + used.system;
  process.stdout.write(`${JSON.stringify(result)}\n`);
  redis.disconnect();
}

/** Starts `n` worker processes, lets them go together, and sums their counts. */
async function round(mode: Mode, n: number, prefix: string): Promise<WorkerResult> {
  const self = fileURLToPath(import.meta.url);
  const profile = process.env.RCML_BENCH_CPU_PROF;
  const prof = profile && mode !== 'incr' ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const workers = Array.from({ length: n }, () => {
    const child = spawn(process.execPath, [...prof, '--import', 'tsx', self, 'worker', mode, prefix], {
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
    cpuUs: results.reduce((a, r) => a + r.cpuUs, 0),
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
    console.log(
      `${SECONDS} s per round, ${IN_FLIGHT} arrivals in flight per process, ${cpus().length} cores`,
    );
    const rate = (r: WorkerResult) => r.ops / SECONDS;
    const perOp = (r: WorkerResult) => (r.cpuUs / Math.max(1, r.ops)).toFixed(1);
    const load = () => `load ${loadavg()[0]?.toFixed(1)}`;
    for (const n of PROCESSES) {
      const stem = `${prefix}_${n}`;
      // Rounds interleaved, medians kept: a shared machine's load moves between rounds.
      const runs: Record<Mode, WorkerResult[]> = { incr: [], queue: [], queues: [] };
      for (let r = 0; r < REPEATS; r++) {
        runs.incr.push(await round('incr', n, `${stem}p`));
        runs.queue.push(await round('queue', n, `${stem}h${r}`));
        runs.queues.push(await round('queues', n, `${stem}s${r}`));
      }
      const [floor, hot, spread] = [median(runs.incr), median(runs.queue), median(runs.queues)];
      const all = [...runs.queue, ...runs.queues];
      const trips = all.reduce((a, r) => a + r.commands, 0) / all.reduce((a, r) => a + r.ops, 0);
      const line = (what: string, queue: WorkerResult) =>
        `  ${what}: ${(queue.matches / SECONDS).toFixed(0)} matches/s (${rate(queue).toFixed(0)} arrivals/s), ` +
        `ratio to the floor ${(rate(queue) / rate(floor)).toFixed(2)}, ${perOp(queue)} µs node CPU per arrival`;
      console.log(
        `${n} process${n > 1 ? 'es' : ''} (${load()}), ${trips.toFixed(2)} Redis round trips per arrival:`,
      );
      console.log(
        `  floor: ${rate(floor).toFixed(0)} INCR/s, ${IN_FLIGHT} in flight per process, ${perOp(floor)} µs node CPU per INCR`,
      );
      console.log(line('one queue', hot));
      console.log(line(`${IN_FLIGHT} queues`, spread));
    }
  } finally {
    const keys = await probe.keys(`${prefix}_*`);
    if (keys.length > 0) await probe.del(...keys);
    probe.disconnect();
  }
}

if (process.argv[2] === 'worker' && process.argv[1] === fileURLToPath(import.meta.url)) {
  await worker(process.argv[3] as Mode, process.argv[4]);
}
