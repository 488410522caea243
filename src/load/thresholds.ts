/**
 * Pass/fail criteria of a load run, in the manner of k6: `p99<200`, `errors==0`,
 * `calls_per_second>=50`. `rcml load --threshold` exits 1 when one fails and names it.
 */
import type { LoadReport } from './report.js';

/** What a threshold can name, and where the report holds it. */
const METRICS: Readonly<Record<string, { unit: string; of: (r: LoadReport) => number }>> = {
  p50: { unit: 'ms', of: (r) => r.latency.all.p50 },
  p90: { unit: 'ms', of: (r) => r.latency.all.p90 },
  p99: { unit: 'ms', of: (r) => r.latency.all.p99 },
  max: { unit: 'ms', of: (r) => r.latency.all.max },
  mean: { unit: 'ms', of: (r) => r.latency.all.mean },
  errors: { unit: '', of: (r) => r.errors.total },
  error_rate: { unit: '', of: (r) => (r.requests.total === 0 ? 0 : r.errors.total / r.requests.total) },
  dropped: { unit: '', of: (r) => r.calls.dropped },
  calls_per_second: { unit: 'calls/s', of: (r) => r.calls.perSecond },
  requests_per_second: { unit: 'requests/s', of: (r) => r.requests.perSecond },
};

const OPERATORS = {
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
  '==': (a: number, b: number) => a === b,
  '!=': (a: number, b: number) => a !== b,
} as const;

type Operator = keyof typeof OPERATORS;

/** A parsed threshold. */
export interface LoadThreshold {
  /** As written, e.g. `p99<200`. */
  expression: string;
  metric: string;
  operator: Operator;
  value: number;
}

/** A threshold's outcome on a report. */
export interface ThresholdResult extends LoadThreshold {
  actual: number;
  ok: boolean;
}

/** The metrics a threshold may name. */
export const THRESHOLD_METRICS: readonly string[] = Object.keys(METRICS);

/** Parses `metric op number`; throws an `Error` saying what is wrong. */
export function parseThreshold(expression: string): LoadThreshold {
  const match = /^\s*([a-z_0-9]+)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expression);
  if (!match) {
    throw new Error(`expected <metric><op><number> such as p99<200 or errors==0, got '${expression}'`);
  }
  const [, metric, operator, value] = match as unknown as [string, string, Operator, string];
  if (!METRICS[metric]) {
    throw new Error(`unknown metric '${metric}' in '${expression}': one of ${THRESHOLD_METRICS.join(', ')}`);
  }
  return { expression: expression.trim(), metric, operator, value: Number(value) };
}

/** Checks each threshold against the report. */
export function checkThresholds(report: LoadReport, thresholds: readonly LoadThreshold[]): ThresholdResult[] {
  return thresholds.map((t) => {
    const actual = (METRICS[t.metric] as (typeof METRICS)[string]).of(report);
    return { ...t, actual, ok: OPERATORS[t.operator](actual, t.value) };
  });
}

/** `p99<200 failed: p99 was 340.2 ms` / `errors==0 passed (0)`. */
export function formatThresholdResult(r: ThresholdResult): string {
  const unit = (METRICS[r.metric] as (typeof METRICS)[string]).unit;
  const actual = `${Number.isInteger(r.actual) ? r.actual : r.actual.toFixed(r.metric === 'error_rate' ? 4 : 1)}${unit ? ` ${unit}` : ''}`;
  return r.ok
    ? `${r.expression} passed (${r.metric} ${actual})`
    : `${r.expression} FAILED: ${r.metric} was ${actual}`;
}
