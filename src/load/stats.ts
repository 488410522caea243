/** Latency figures in milliseconds: nearest-rank percentiles of every sample. */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/**
 * The `p`-th percentile (0 < p <= 100) of sorted values by the nearest-rank method: the smallest
 * value with at least p% of the values at or below it. 0 for no values.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/** Count, mean, p50, p90, p99 and max of latency samples (ms, rounded to microseconds). */
export function summarize(values: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    mean: sorted.length ? round(sum / sorted.length) : 0,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1]! : 0),
  };
}

/** Latency samples grouped by a key (URL path, request kind). */
export class SampleGroups {
  private readonly groups = new Map<string, number[]>();

  add(key: string, ms: number): void {
    let list = this.groups.get(key);
    if (!list) {
      list = [];
      this.groups.set(key, list);
    }
    list.push(ms);
  }

  summaries(): Record<string, LatencySummary> {
    const out: Record<string, LatencySummary> = {};
    for (const key of [...this.groups.keys()].sort()) out[key] = summarize(this.groups.get(key)!);
    return out;
  }
}
