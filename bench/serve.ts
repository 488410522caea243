/**
 * `rcml serve` under load, as a user runs it: the package's program (`dist/cli/main.js`, built
 * first when `src` is newer) as a child process on a temporary SQLite data directory (real clock), a webhook answering each call with Say, Pause 1, Hangup,
 * and POST Calls driven from a worker thread. Prints calls/s of the node, the server's CPU ms
 * per call, POST latency p50/p99, and the ratio to a trivial route of the same server (GET one
 * call's JSON: authentication and one read) measured in the same run: three rounds of the two
 * in turn, the round of median ratio printed. Goal: >= 2,000 calls/s, <= 0.4 ms of server CPU
 * per call, a ratio >= 40 % at the default level.
 *
 * Measured at the default log level (info, a line per call, written to a file) and at warn;
 * RCML_BENCH_LOG_LEVEL=<level> measures one. RCML_BENCH_CPU_PROF=<dir> runs the server with
 * `node --cpu-prof` and writes its profile there.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LoadJob, LoadResult } from './serve-load.js';

const ROOT = join(import.meta.dirname, '..');
/** The program `rcml` runs (the package's bin), built from `src` when older than it. */
const MAIN = join(ROOT, 'dist/cli/main.js');
const LOAD = new URL('./serve-load.ts', import.meta.url);
const ACCOUNT = `AC${'b'.repeat(32)}`;
const TOKEN = 'bench-serve-token';
const SECONDS = 5;
/** Each route warmed up this long first (the compiler, the page cache, the WAL). */
const WARM_UP_SECONDS = 2;
const CONCURRENCY = 32;
const CLOCK_TICKS_PER_SECOND = 100;
/** Rounds of (trivial route, calls); the round of median ratio is printed. */
const ROUNDS = 3;

interface Round {
  calls: LoadResult;
  perSecond: number;
  floorPerSecond: number;
  cpu: number | undefined;
}
const RCML = '<Response><Say>Hello</Say><Pause length="1"/><Hangup/></Response>';

async function startWebhook(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.end(RCML);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`, server };
}

function startServe(
  data: string,
  profileDir: string | undefined,
  level: string,
  logFd: number,
): Promise<{ url: string; child: ChildProcess }> {
  const prof = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(
    process.execPath,
    [
      ...prof,
      MAIN,
      'serve',
      '--port',
      '0',
      '--data',
      data,
      '--account-sid',
      ACCOUNT,
      '--auth-token',
      TOKEN,
      // The load is one account's: no per-account limits.
      '--api-rate',
      '0',
      '--max-live-calls',
      '0',
      '--log-level',
      level,
    ],
    // Log lines go to a file, as a service's would.
    { stdio: ['ignore', 'pipe', logFd] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && /account sid:/.test(out)) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`rcml serve exited ${code}`)));
  });
}

/** CPU time (user + system) of a process so far, in ms (Linux `/proc`). */
function cpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), counted from the state (field 3) here.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // A worker does not inherit the main thread's TypeScript loader: it registers it first.
    const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
      .then((tsx) => { tsx.register(); return import(${JSON.stringify(LOAD.href)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: job });
    worker.once('message', (m: LoadResult | { error: string }) => {
      void worker.terminate();
      if ('error' in m) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
  });
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

/**
 * Measures at the default log level (`info`: one line per call) and at `warn`, unless
 * RCML_BENCH_LOG_LEVEL names one.
 */
/** The newest modification time of the files under `dir`, ms. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Builds the package (`npm run build`) unless `dist` is newer than every file of `src`. */
function ensureBuilt(): void {
  const built = existsSync(MAIN) ? statSync(MAIN).mtimeMs : 0;
  if (built > newest(join(ROOT, 'src'))) return;
  console.log('building (npm run build): the bench runs the program users run, dist/cli/main.js');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function run(): Promise<void> {
  ensureBuilt();
  const levels = process.env.RCML_BENCH_LOG_LEVEL ? [process.env.RCML_BENCH_LOG_LEVEL] : ['info', 'warn'];
  for (const level of levels) {
    console.log(`--log-level ${level}`);
    await measure(level);
  }
}

async function measure(level: string): Promise<void> {
  const data = mkdtempSync(join(tmpdir(), 'rcml-bench-serve-'));
  const logFd = openSync(join(data, 'serve.log'), 'a');
  const webhook = await startWebhook();
  const { url, child } = await startServe(data, process.env.RCML_BENCH_CPU_PROF || undefined, level, logFd);
  const root = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
  const auth = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
  const post: LoadJob = {
    origin: url,
    method: 'POST',
    path: `${root}/Calls.json`,
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ From: '+15550001', To: '+15550002', Url: webhook.url }).toString(),
    seconds: SECONDS,
    concurrency: CONCURRENCY,
  };
  const first = await fetch(`${url}${post.path}`, { method: 'POST', headers: post.headers, body: post.body });
  const { sid } = (await first.json()) as { sid: string };
  const trivial: LoadJob = {
    ...post,
    method: 'GET',
    path: `${root}/Calls/${sid}.json`,
    headers: { authorization: auth },
    body: undefined,
  };
  try {
    await load({ ...post, seconds: WARM_UP_SECONDS });
    await load({ ...trivial, seconds: WARM_UP_SECONDS });
    // Rounds of the two measures in turn, each ratio taken within its round: the load of a
    // shared machine moves between rounds more than between the two halves of one.
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const floor = await load(trivial);
      // Let the calls of the warm-up or of the last round end before measuring.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const before = cpuMs(child.pid as number);
      const calls = await load(post);
      const after = cpuMs(child.pid as number);
      rounds.push({
        calls,
        perSecond: calls.ok / calls.seconds,
        floorPerSecond: floor.ok / floor.seconds,
        cpu: before === undefined || after === undefined ? undefined : (after - before) / calls.ok,
      });
    }
    const byRatio = [...rounds].sort(
      (a, b) => a.perSecond / a.floorPerSecond - b.perSecond / b.floorPerSecond,
    );
    const mid = byRatio[Math.floor(byRatio.length / 2)] as Round;
    const { calls, perSecond, floorPerSecond, cpu } = mid;
    const ratios = byRatio.map((r) => `${((100 * r.perSecond) / r.floorPerSecond).toFixed(0)}%`).join(', ');
    console.log(`round of median ratio (of ${ROUNDS}: ${ratios}):`);
    console.log(`calls/s (POST Calls, ${CONCURRENCY} connections, ${SECONDS} s): ${perSecond.toFixed(0)}`);
    const failed = rounds.reduce((n, r) => n + r.calls.failed, 0);
    if (failed > 0)
      console.log(`  refused or failed: ${failed} ${JSON.stringify(rounds.map((r) => r.calls.statuses))}`);
    console.log(
      `server CPU per call: ${cpu === undefined ? 'n/a (no /proc)' : `${cpu.toFixed(3)} ms`} (during the POSTs, calls running)`,
    );
    console.log(
      `POST Calls latency: p50 ${percentile(calls.latencies, 50).toFixed(1)} ms, p99 ${percentile(calls.latencies, 99).toFixed(1)} ms`,
    );
    console.log(
      `trivial route (GET a call): ${floorPerSecond.toFixed(0)} req/s; ratio calls/trivial ${((100 * perSecond) / floorPerSecond).toFixed(0)}%`,
    );
    console.log(`goal: >= 2000 calls/s, <= 0.4 ms CPU per call, ratio >= 40% at the default level (info)`);
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    await new Promise((r) => webhook.server.close(r));
    closeSync(logFd);
    rmSync(data, { recursive: true, force: true });
  }
}
