import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createEngine, type Engine } from '../engine/engine.js';
import type { HttpFetcherOptions } from '../engine/fetcher.js';
import type { EngineEvent, PartyBehaviour } from '../engine/types.js';
import type { HttpMethod } from '../rcml/model.js';
import type { LoadReport, LoadSecond } from './report.js';
import { LatencyHistogram, percentile, SampleGroups } from './stats.js';

/** Options of `runLoad`. */
export interface LoadOptions {
  /** The application's voice URL (its first document). */
  voiceUrl: string;
  voiceMethod?: HttpMethod;
  /** Calls to start. Default 100, unless `duration` is given (then no limit). */
  calls?: number;
  /** Seconds (of the engine's clock) during which calls start; live calls then finish. */
  duration?: number;
  /** Most calls live at once. Default 50. */
  concurrency?: number;
  /** Arrivals per second (evenly spaced); default as fast as `concurrency` allows. */
  rate?: number;
  /** `real` (default): wall time; `virtual`: time advances whenever no request is in flight. */
  clock?: 'real' | 'virtual';
  /** `inbound` (default): callers dial `to`, routed to the voice URL; `outbound`: POST Calls with `Url`. */
  direction?: 'inbound' | 'outbound';
  /** Number called (inbound) or calling (outbound). Default `+15550100`. */
  number?: string;
  /** Callers' behaviour: one for all, or per call index (e.g. samples of `arbitraryCaller`). */
  party?: PartyBehaviour | ((index: number) => PartyBehaviour);
  /** Status callback URL of every call (completed only). */
  statusCallback?: string;
  /** Request timeout in ms (headers and body). Default 10,000. */
  timeoutMs?: number;
  /** HTTP pool settings (`connections` per origin, `keepAliveTimeoutMs`, `pipelining`). */
  http?: Pick<HttpFetcherOptions, 'connections' | 'keepAliveTimeoutMs' | 'pipelining'>;
  /** Aborting stops starting calls, hangs up the live ones and still returns the report. */
  signal?: AbortSignal;
  /** Called about 4 times a second with the figures so far. */
  onProgress?: (progress: LoadProgress) => void;
}

/** Figures so far, for a progress display. */
export interface LoadProgress {
  started: number;
  ended: number;
  live: number;
  /** Calls to start in all, when known. */
  total: number | undefined;
  callsPerSecond: number;
  /** p99 latency of the last seconds (ms). */
  p99: number;
  errors: number;
  wallSeconds: number;
}

const FINAL = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

/** Error kind of an answer, or undefined for a success. */
function errorKind(status: number, error: string | undefined): string | undefined {
  if (status === 0) return /timeout/i.test(error ?? '') ? 'timeout' : 'io';
  if (status >= 500) return 'http-5xx';
  if (status >= 400) return 'http-4xx';
  return undefined;
}

const pathCache = new Map<string, string>();

/** The path of a request's URL (the URL itself when it is not one), remembered per URL. */
function pathOf(url: string): string {
  let path = pathCache.get(url);
  if (path === undefined) {
    try {
      path = new URL(url).pathname;
    } catch {
      path = url;
    }
    if (pathCache.size >= 1024) pathCache.clear();
    pathCache.set(url, path);
  }
  return path;
}

/**
 * Drives calls against an RCML application over HTTP and measures it: calls/s, webhook latency
 * per URL path and request kind, errors by kind, final statuses, the engine's CPU, heap and
 * event-loop lag. On the virtual clock the figures are latencies, not capacity: time only moves
 * when no request is in flight.
 */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const concurrency = options.concurrency ?? 50;
  if (!URL.canParse(options.voiceUrl))
    throw new TypeError(`voiceUrl: not a valid URL: '${options.voiceUrl}'`);
  if (!(concurrency >= 1)) throw new TypeError(`concurrency: must be at least 1, got ${concurrency}`);
  if (options.rate !== undefined && !(options.rate > 0))
    throw new TypeError(`rate: must be more than 0, got ${options.rate}`);
  if (options.duration !== undefined && !(options.duration > 0))
    throw new TypeError(`duration: must be more than 0, got ${options.duration}`);
  const total = options.calls ?? (options.duration === undefined ? 100 : undefined);
  if (total !== undefined && !(Number.isInteger(total) && total >= 1))
    throw new TypeError(`calls: must be a whole number of at least 1, got ${total}`);

  const direction = options.direction ?? 'inbound';
  const number = options.number ?? '+15550100';
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();

  const all = new LatencyHistogram();
  const byPath = new SampleGroups();
  const byKind = new SampleGroups();
  const pending = new Map<number, { t: number; path: string; kind: string }>();
  const errors: Record<string, number> = {};
  const notifications: Record<string, number> = {};
  const samples: string[] = [];
  const statuses: Record<string, number> = {};
  // A second's latencies are kept only while it is one of the last three (the progress line
  // reads them); then its percentiles are computed and the samples dropped: memory stays flat.
  const seconds: Array<LoadSecond & { latencies?: number[] }> = [];
  let summarized = 0;
  const summarizeSecond = (sec: LoadSecond & { latencies?: number[] }): void => {
    if (!sec.latencies) return;
    const sorted = Float64Array.from(sec.latencies).sort();
    sec.p50 = Math.round(percentile(sorted, 50) * 1000) / 1000;
    sec.p99 = Math.round(percentile(sorted, 99) * 1000) / 1000;
    sec.latencies = undefined;
  };
  let started = 0;
  let ended = 0;
  let dropped = 0;
  let live = 0;
  let heapMax = process.memoryUsage().heapUsed;
  let totalErrors = 0;

  // The timeline's seconds: of wall time, or of the engine's clock when it is virtual (set below).
  let elapsedSeconds = (): number => (performance.now() - wall0) / 1000;
  const bucket = (): LoadSecond & { latencies?: number[] } => {
    const s = Math.floor(elapsedSeconds());
    while (seconds.length <= s) {
      seconds.push({
        second: seconds.length,
        callsStarted: 0,
        callsEnded: 0,
        requests: 0,
        errors: 0,
        p50: 0,
        p99: 0,
        latencies: [],
      });
    }
    while (summarized < s - 2) summarizeSecond(seconds[summarized++]!);
    return seconds[s]!;
  };
  const countError = (kind: string, sample?: string): void => {
    errors[kind] = (errors[kind] ?? 0) + 1;
    totalErrors++;
    bucket().errors++;
    if (sample && samples.length < 5) samples.push(sample);
  };
  const topLevel = direction === 'inbound' ? 'inbound' : 'outbound-api';

  let onCallEnded = (): void => {};
  const onEvent = (e: EngineEvent): void => {
    if (e.type === 'request') {
      pending.set(e.id, { t: performance.now(), path: pathOf(e.url), kind: e.kind });
      if (e.kind === 'fallback') countError('fallback', `fallback to ${e.url}`);
    } else if (e.type === 'response') {
      const p = pending.get(e.id);
      if (!p) return;
      pending.delete(e.id);
      const ms = performance.now() - p.t;
      all.add(ms);
      byPath.add(p.path, ms);
      byKind.add(p.kind, ms);
      const b = bucket();
      b.requests++;
      b.latencies?.push(ms);
      const kind = errorKind(e.status, e.error);
      if (kind) countError(kind, `${kind}: ${e.url}${e.error ? ` (${e.error})` : ` HTTP ${e.status}`}`);
    } else if (e.type === 'call-status' && e.direction === topLevel && FINAL.has(e.status)) {
      statuses[e.status] = (statuses[e.status] ?? 0) + 1;
      ended++;
      live--;
      bucket().callsEnded++;
      onCallEnded();
    }
  };

  const engine: Engine = createEngine({
    clock: options.clock ?? 'real',
    retainCalls: false,
    onEvent,
    sink: {
      notification: (n) => {
        if (n.log !== 0) return;
        notifications[n.code] = (notifications[n.code] ?? 0) + 1;
        if (n.code.startsWith('12')) countError('invalid-rcml', `${n.code}: ${n.message}`);
      },
    },
    http: { timeoutMs: options.timeoutMs ?? 10_000, ...options.http },
  });
  const clock = engine.clock;
  const party = options.party;
  if (party && typeof party !== 'function') engine.setDefaultParty(party);
  if (direction === 'inbound') {
    engine.setNumber(number, {
      voiceUrl: options.voiceUrl,
      voiceMethod: options.voiceMethod,
      statusCallback: options.statusCallback,
    });
  }

  const t0 = clock.now();
  if (clock.kind === 'virtual') elapsedSeconds = () => (clock.now() - t0) / 1000;
  let stopping = false;
  let arrivalsOver = false;
  const more = (): boolean =>
    !stopping && !arrivalsOver && (total === undefined || started + dropped < total);

  const startOne = (): void => {
    const index = started++;
    live++;
    bucket().callsStarted++;
    const address = `+1999${String(index).padStart(8, '0')}`;
    if (typeof party === 'function') engine.setParty(address, party(index));
    try {
      if (direction === 'inbound') engine.incomingCall(address, number);
      else {
        engine.createCall({
          From: number,
          To: address,
          Url: options.voiceUrl,
          Method: options.voiceMethod,
          StatusCallback: options.statusCallback,
        });
      }
    } catch (err) {
      live--;
      countError('engine', err instanceof Error ? err.message : String(err));
    }
  };

  // Arrivals: evenly spaced at `rate` (catching up with every arrival due), else refills.
  let refillQueued = false;
  const refill = (): void => {
    refillQueued = false;
    while (more() && live < concurrency) startOne();
    checkDone();
  };
  let due = 0;
  const tick = (): void => {
    const rate = options.rate!;
    const shouldHave = Math.floor(((clock.now() - t0) * rate) / 1000) + 1;
    while (due < shouldHave && more()) {
      due++;
      if (live < concurrency) startOne();
      else dropped++;
    }
    if (more()) clock.setTimeout(tick, Math.max(0, t0 + (due * 1000) / rate - clock.now()));
    checkDone();
  };

  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  const checkDone = (): void => {
    if (!more() && live <= 0) resolveDone();
  };
  // On the real clock the next calls start in the next turn of the event loop, not after a
  // timer's millisecond; the virtual clock needs its own timer to count the refill as pending.
  const later =
    clock.kind === 'real'
      ? (fn: () => void) => setImmediate(fn)
      : (fn: () => void) => clock.setTimeout(fn, 0);
  onCallEnded = () => {
    if (options.rate === undefined && !refillQueued && more()) {
      refillQueued = true;
      later(refill);
    } else checkDone();
  };
  if (options.duration !== undefined) {
    clock.setTimeout(() => {
      arrivalsOver = true;
      checkDone();
    }, options.duration * 1000);
  }
  const stop = (): void => {
    stopping = true;
    resolveDone();
  };
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });

  const progress = (): LoadProgress => {
    const wall = (performance.now() - wall0) / 1000;
    const recent = seconds.slice(-3).flatMap((s) => s.latencies ?? []);
    return {
      started,
      ended,
      live,
      total,
      callsPerSecond: wall > 0 ? ended / wall : 0,
      p99: percentile(Float64Array.from(recent).sort(), 99),
      errors: totalErrors,
      wallSeconds: wall,
    };
  };
  const ticker = setInterval(() => {
    heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
    options.onProgress?.(progress());
  }, 250);
  ticker.unref();

  let endFigures = { clockSeconds: 0, cpu: { user: 0, system: 0 } };
  try {
    if (options.rate === undefined) refill();
    else tick();
    if (clock.kind === 'virtual') {
      let idle = false;
      while (!stopping && !idle) {
        idle = await engine.runUntilIdle(1);
        // Let a pending abort (SIGINT) run between slices of virtual time.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } else {
      await done;
    }
  } finally {
    clearInterval(ticker);
    options.signal?.removeEventListener('abort', stop);
    const clockSeconds = (clock.now() - t0) / 1000;
    await engine.close();
    lag.disable();
    heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
    endFigures = { clockSeconds, cpu: process.cpuUsage(cpu0) };
  }
  options.onProgress?.(progress());

  const wallSeconds = (performance.now() - wall0) / 1000;
  const cpuMs = (endFigures.cpu.user + endFigures.cpu.system) / 1000;
  const lagMs = (v: number): number => Math.round((Number.isFinite(v) ? v : 0) / 1e4) / 100;
  return {
    target: options.voiceUrl,
    clock: clock.kind,
    direction,
    interrupted: stopping,
    wallSeconds: Math.round(wallSeconds * 1000) / 1000,
    clockSeconds: Math.round(endFigures.clockSeconds * 1000) / 1000,
    calls: {
      started,
      ended,
      dropped,
      ...(dropped > 0
        ? {
            droppedReason: `an arrival found ${concurrency} calls live (--concurrency ${concurrency} at --rate ${options.rate}/s): raise the concurrency or lower the rate`,
          }
        : {}),
      perSecond: wallSeconds > 0 ? Math.round((ended / wallSeconds) * 10) / 10 : 0,
      statuses,
    },
    requests: {
      total: all.count,
      perSecond: wallSeconds > 0 ? Math.round((all.count / wallSeconds) * 10) / 10 : 0,
    },
    latency: { all: all.summary(), byPath: byPath.summaries(), byKind: byKind.summaries() },
    errors: { total: totalErrors, byKind: errors, notifications, samples },
    engine: {
      cpuPercent: wallSeconds > 0 ? Math.round((cpuMs / 10 / wallSeconds) * 10) / 10 : 0,
      userCpuMs: Math.round(endFigures.cpu.user / 1000),
      systemCpuMs: Math.round(endFigures.cpu.system / 1000),
      heapUsedMaxMb: Math.round((heapMax / 1048576) * 10) / 10,
      eventLoopLag: { p50: lagMs(lag.percentile(50)), p99: lagMs(lag.percentile(99)), max: lagMs(lag.max) },
    },
    timeline: seconds.map((sec) => {
      summarizeSecond(sec);
      const { latencies: _, ...s } = sec;
      return s;
    }),
  };
}
