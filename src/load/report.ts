import type { LatencySummary } from './stats.js';

/** One second of a load run, from its start: of wall time, or of virtual time on a virtual clock. */
export interface LoadSecond {
  second: number;
  callsStarted: number;
  callsEnded: number;
  requests: number;
  errors: number;
  /** Latency of the requests answered in this second (ms). */
  p50: number;
  p99: number;
}

/** What `runLoad` measured. Latencies in milliseconds, rates per wall-clock second. */
export interface LoadReport {
  target: string;
  clock: 'real' | 'virtual';
  direction: 'inbound' | 'outbound';
  /** True when the run was stopped (SIGINT, `signal`) before its end. */
  interrupted: boolean;
  wallSeconds: number;
  /** Engine clock time the run covered (virtual seconds on the virtual clock). */
  clockSeconds: number;
  calls: {
    started: number;
    ended: number;
    /** Arrivals not started because `concurrency` calls were live (with `rate`). */
    dropped: number;
    /** Why calls were dropped, when some were. */
    droppedReason?: string;
    perSecond: number;
    /** Final statuses of the calls started (live ones at an interruption: as they were). */
    statuses: Record<string, number>;
  };
  requests: { total: number; perSecond: number };
  latency: {
    all: LatencySummary;
    /** By URL path (query left out). */
    byPath: Record<string, LatencySummary>;
    /** By request kind: rcml, action, redirect, status-callback, queue-wait, fallback... */
    byKind: Record<string, LatencySummary>;
  };
  errors: {
    total: number;
    /** timeout, io (connection refused, reset...), http-4xx, http-5xx, fallback (fallback URL used), invalid-rcml. */
    byKind: Record<string, number>;
    /** Notifications of level error by code. */
    notifications: Record<string, number>;
    /** A few example messages. */
    samples: string[];
  };
  engine: {
    cpuPercent: number;
    userCpuMs: number;
    systemCpuMs: number;
    heapUsedMaxMb: number;
    /** Event-loop delay of the engine's process (ms). */
    eventLoopLag: { p50: number; p99: number; max: number };
  };
  timeline: LoadSecond[];
}

const ms = (v: number): string => `${v.toFixed(1)} ms`;

/** The report as text, for a terminal. */
export function formatLoadReport(r: LoadReport): string {
  const out = [
    `rcml load ${r.target} (${r.direction}, ${r.clock} clock)${r.interrupted ? ' - interrupted' : ''}`,
    `  calls: ${r.calls.started} started, ${r.calls.ended} ended, ${r.calls.dropped} dropped; ` +
      `${r.calls.perSecond.toFixed(1)} calls/s over ${r.wallSeconds.toFixed(2)} s`,
    ...(r.calls.droppedReason ? [`  dropped: ${r.calls.droppedReason}`] : []),
    `  statuses: ${
      Object.entries(r.calls.statuses)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
    `  requests: ${r.requests.total} (${r.requests.perSecond.toFixed(1)}/s)`,
    '',
    '  latency (ms)            count      p50      p90      p99      max',
  ];
  const row = (name: string, s: LatencySummary): string =>
    `  ${name.padEnd(22).slice(0, 22)} ${String(s.count).padStart(6)} ${[s.p50, s.p90, s.p99, s.max]
      .map((v) => v.toFixed(1).padStart(8))
      .join(' ')}`;
  out.push(row('all', r.latency.all));
  for (const [k, s] of Object.entries(r.latency.byKind)) out.push(row(`kind ${k}`, s));
  for (const [k, s] of Object.entries(r.latency.byPath)) out.push(row(k, s));
  out.push(
    '',
    `  errors: ${r.errors.total}${
      r.errors.total
        ? ` (${Object.entries(r.errors.byKind)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')})`
        : ''
    }`,
  );
  for (const [code, n] of Object.entries(r.errors.notifications)) out.push(`    notification ${code}: ${n}`);
  for (const s of r.errors.samples) out.push(`    e.g. ${s}`);
  const lag = r.engine.eventLoopLag;
  out.push(
    `  engine: CPU ${r.engine.cpuPercent.toFixed(0)}%, heap max ${r.engine.heapUsedMaxMb.toFixed(1)} MB, ` +
      `event-loop lag p50 ${ms(lag.p50)}, p99 ${ms(lag.p99)}, max ${ms(lag.max)}`,
  );
  return out.join('\n') + '\n';
}
