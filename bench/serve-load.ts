/**
 * Load generator of `bench/serve.ts`, run in a worker thread so its CPU is not the server's nor
 * the webhook's: POSTs Calls (or GETs a trivial route) over keep-alive connections for a while
 * and posts back how many succeeded and each request's latency.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

export interface LoadJob {
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  seconds: number;
  concurrency: number;
}

export interface LoadResult {
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  seconds: number;
  /** Milliseconds of each successful request, unsorted. */
  latencies: number[];
}

async function drive(job: LoadJob): Promise<LoadResult> {
  const pool = new Pool(job.origin, { connections: job.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let failed = 0;
  const start = performance.now();
  const end = start + job.seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await pool.request({
          method: job.method,
          path: job.path,
          headers: job.headers,
          body: job.body,
        });
        await res.body.arrayBuffer();
        if (res.statusCode >= 200 && res.statusCode < 300) latencies.push(performance.now() - t0);
        else {
          failed++;
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        }
      } catch (err) {
        failed++;
        const key = err instanceof Error ? err.message : String(err);
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  await pool.close();
  return { ok: latencies.length, failed, statuses, seconds, latencies };
}

if (parentPort && workerData) {
  const port = parentPort;
  drive(workerData as LoadJob).then(
    (result) => port.postMessage(result),
    (err) => port.postMessage({ error: String(err) }),
  );
}
