/**
 * The platform's Prometheus metrics (prom-client), one registry per server. Hot-path updates
 * go through children cached per label set, so a request or an engine event costs a map lookup
 * and an addition; gauges that need a walk (live calls) are computed at scrape time.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

type LabelValues = readonly string[];

/** `labels()` children cached by their joined values. */
function cachedChildren<T>(make: (values: LabelValues) => T): (values: LabelValues) => T {
  const children = new Map<string, T>();
  return (values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (child === undefined) {
      child = make(values);
      children.set(key, child);
    }
    return child;
  };
}

/**
 * A counter whose hot-path increment is a map lookup and an addition: the counts live in plain
 * numbers and are copied into the prom-client counter when it is scraped (prom-client hashes
 * the label set on every `inc`, which costs a few times more).
 */
function fastCounter(
  registers: Registry[],
  name: string,
  help: string,
  labelNames: readonly string[],
): (values: LabelValues) => void {
  const counts = new Map<string, { values: LabelValues; n: number }>();
  new Counter({
    name,
    help,
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const { values, n } of counts.values()) {
        this.inc(Object.fromEntries(labelNames.map((l, i) => [l, values[i] as string])), n);
      }
    },
  });
  return (values) => {
    const key = values.join('\u0000');
    const entry = counts.get(key);
    if (entry) entry.n++;
    else counts.set(key, { values, n: 1 });
  };
}

/** Something that counts live calls (the engine), read at scrape time. */
export interface LiveCallSource {
  readonly liveCount: number;
}

/** Options of {@link createPlatformMetrics}. */
export interface PlatformMetricsOptions {
  /** Also export the process's own metrics (CPU, memory, event loop lag, GC). Default true. */
  processMetrics?: boolean;
}

/** The metrics a platform server keeps, and the updates its parts call. */
export interface PlatformMetrics {
  readonly registry: Registry;
  /** The exposition text and its content type, for `GET /metrics`. */
  scrape(): Promise<{ body: string; contentType: string }>;
  /** Where `rcml_calls_live` is read from. */
  watchLiveCalls(source: LiveCallSource): void;
  callStarted(direction: string): void;
  callEnded(status: string, direction: string): void;
  /** A webhook (RCML fetch, action, status callback...) answered, or failed with status 0. */
  webhook(kind: string, seconds: number, status: number): void;
  notification(code: string): void;
  /** How many members one side of a queue holds now (as last reported to this node). */
  queueSize(queueSid: string, side: string, size: number): void;
  /** A member stopped waiting: matched, left or timed out. */
  queueWait(outcome: string, seconds: number): void;
  /** A store commit: how long it took and how many writes it carried. */
  storeWrite(seconds: number, batchSize: number): void;
  httpRequest(method: string, route: string, status: number): void;
  /** A SIP request refused before it became a call (an unknown number, a limit, a challenge failed). */
  sipRefused(reason: string): void;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const BATCH_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000];

export function createPlatformMetrics(options: PlatformMetricsOptions = {}): PlatformMetrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const started = fastCounter(registers, 'rcml_calls_started_total', 'Calls started, by direction.', [
    'direction',
  ]);
  const ended = fastCounter(
    registers,
    'rcml_calls_ended_total',
    'Calls ended, by final status and direction.',
    ['status', 'direction'],
  );
  const liveSources: LiveCallSource[] = [];
  new Gauge({
    name: 'rcml_calls_live',
    help: 'Calls not yet ended on this node.',
    registers,
    collect() {
      this.set(liveSources.reduce((sum, s) => sum + s.liveCount, 0));
    },
  });
  const webhookSeconds = new Histogram({
    name: 'rcml_webhook_duration_seconds',
    help: 'Time from sending a webhook request to its answer (or failure), by kind.',
    labelNames: ['kind'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const webhookFailures = fastCounter(
    registers,
    'rcml_webhook_failures_total',
    'Webhook requests answered with an HTTP error, or not at all (code "0"), by code.',
    ['code'],
  );
  const notifications = fastCounter(
    registers,
    'rcml_notifications_total',
    'Notifications (errors and warnings about calls), by platform code.',
    ['code'],
  );
  const queueSizes = new Map<string, number>();
  new Gauge({
    name: 'rcml_queue_members',
    help: 'Members waiting in call queues, by side, as last reported to this node.',
    labelNames: ['side'],
    registers,
    collect() {
      this.reset();
      const bySide = new Map<string, number>();
      for (const [key, size] of queueSizes) {
        const side = key.slice(key.indexOf(' ') + 1);
        bySide.set(side, (bySide.get(side) ?? 0) + size);
      }
      for (const [side, size] of bySide) this.set({ side }, size);
    },
  });
  new Gauge({
    name: 'rcml_queues_active',
    help: 'Call queues with someone waiting, as last reported to this node.',
    registers,
    collect() {
      this.set(new Set([...queueSizes.keys()].map((k) => k.slice(0, k.indexOf(' ')))).size);
    },
  });
  const queueWaits = new Histogram({
    name: 'rcml_queue_wait_seconds',
    help: 'How long members waited in a call queue, by outcome (match, leave, timeout).',
    labelNames: ['outcome'],
    buckets: WAIT_BUCKETS,
    registers,
  });
  const storeSeconds = new Histogram({
    name: 'rcml_store_write_seconds',
    help: 'Duration of store commits.',
    buckets: STORE_BUCKETS,
    registers,
  });
  const storeBatch = new Histogram({
    name: 'rcml_store_write_batch_size',
    help: 'Writes carried by one store commit.',
    buckets: BATCH_BUCKETS,
    registers,
  });
  const httpRequests = fastCounter(
    registers,
    'rcml_http_requests_total',
    'HTTP API requests, by method, route pattern and status.',
    ['method', 'route', 'status'],
  );

  const sipRefusals = fastCounter(
    registers,
    'rcml_sip_refused_total',
    'SIP requests refused before they became calls (scans and probes among them), by reason.',
    ['reason'],
  );

  const webhookBy = cachedChildren(([k]) => webhookSeconds.labels(k as string));
  const waitBy = cachedChildren(([o]) => queueWaits.labels(o as string));

  return {
    registry,
    scrape: async () => ({ body: await registry.metrics(), contentType: registry.contentType }),
    watchLiveCalls: (source) => {
      liveSources.push(source);
    },
    callStarted: (direction) => started([direction]),
    callEnded: (status, direction) => ended([status, direction]),
    webhook: (kind, seconds, status) => {
      webhookBy([kind]).observe(seconds);
      if (status === 0 || status >= 400) webhookFailures([String(status)]);
    },
    notification: (code) => notifications([code]),
    sipRefused: (reason) => sipRefusals([reason]),
    queueSize: (queueSid, side, size) => {
      const key = `${queueSid} ${side}`;
      if (size > 0) queueSizes.set(key, size);
      else queueSizes.delete(key);
    },
    queueWait: (outcome, seconds) => waitBy([outcome]).observe(seconds),
    storeWrite: (seconds, batchSize) => {
      storeSeconds.observe(seconds);
      storeBatch.observe(batchSize);
    },
    httpRequest: (method, route, status) => httpRequests([method, route, String(status)]),
  };
}
