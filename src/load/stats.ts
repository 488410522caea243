import hdr from 'hdr-histogram-js';

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

/**
 * Latencies of a long run, in constant memory: an HDR histogram of microseconds (3 significant
 * digits, so a percentile is within 0.1% of the exact one) with the exact count, mean and max.
 */
export class LatencyHistogram {
  private readonly histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    numberOfSignificantValueDigits: 3,
    autoResize: true,
    useWebAssembly: false,
  });
  private sum = 0;
  private top = 0;
  count = 0;

  add(ms: number): void {
    this.histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
    this.sum += ms;
    this.count++;
    if (ms > this.top) this.top = ms;
  }

  /** The `p`-th percentile (ms); never above the largest value added. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    return Math.min(this.top, this.histogram.getValueAtPercentile(p) / 1000);
  }

  summary(): LatencySummary {
    return {
      count: this.count,
      mean: this.count ? round(this.sum / this.count) : 0,
      p50: round(this.percentile(50)),
      p90: round(this.percentile(90)),
      p99: round(this.percentile(99)),
      max: round(this.top),
    };
  }
}

/** Latency histograms grouped by a key (URL path, request kind). */
export class SampleGroups {
  private readonly groups = new Map<string, LatencyHistogram>();

  add(key: string, ms: number): void {
    let group = this.groups.get(key);
    if (!group) {
      group = new LatencyHistogram();
      this.groups.set(key, group);
    }
    group.add(ms);
  }

  summaries(): Record<string, LatencySummary> {
    const out: Record<string, LatencySummary> = {};
    for (const key of [...this.groups.keys()].sort())
      out[key] = (this.groups.get(key) as LatencyHistogram).summary();
    return out;
  }
}
