/**
 * The operating side of `rcml serve`: its flags (logs, metrics, retention, drain, HTTP limits),
 * the logger, metrics and readiness checks they configure, and the signal handling that drains.
 */
import { InvalidArgumentError, type Option } from 'commander';
import {
  createLogger,
  createPlatformMetrics,
  createReadiness,
  LOG_LEVELS,
  type LogFormat,
  type Logger,
  type LogLevel,
  type OpsOptions,
} from '../../api/ops/index.js';
import type { HttpLimits } from '../../api/server.js';
import { type Prunable, pruneOlderThan, totalPruned } from '../../store/retention.js';
import { envOption } from '../env-option.js';

function wholeNumber(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min) {
      throw new InvalidArgumentError(`expected a whole number >= ${min}`);
    }
    return Number(value);
  };
}

/** Values of the operating flags. */
export interface ServeOpsOptions {
  logLevel: LogLevel;
  logFormat?: LogFormat;
  metrics: 'on' | 'off';
  retainDays?: number;
  /** Undefined: 30 s on the real clock, 0 on a virtual one (see {@link drainSecondsOf}). */
  drainSeconds?: number;
  maxConnections: number;
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
}

/** The operating flags of `rcml serve`, each also read from its `RCML_*` variable. */
export function serveOpsOptions(): Option[] {
  return [
    envOption('--log-level <level>', 'least severe log lines written').choices(LOG_LEVELS).default('info'),
    envOption('--log-format <format>', 'log lines as JSON, or human (default: human on a terminal)').choices([
      'json',
      'human',
    ]),
    envOption('--metrics <on|off>', 'serve GET /metrics (Prometheus)').choices(['on', 'off']).default('on'),
    envOption(
      '--retain-days <n>',
      'hourly, delete calls, recordings, gathers, notifications and ended conferences older than n days',
    ).argParser(wholeNumber(1)),
    envOption(
      '--drain-seconds <n>',
      'on SIGTERM, how long live calls may run on before they are ended (default 30; 0 on a virtual clock)',
    ).argParser(wholeNumber(0)),
    envOption('--max-connections <n>', 'most open HTTP connections').argParser(wholeNumber(1)).default(10000),
    envOption('--request-timeout <s>', 'most seconds to receive a whole request (0: none)')
      .argParser(wholeNumber(0))
      .default(120),
    envOption('--headers-timeout <s>', "most seconds to receive a request's headers")
      .argParser(wholeNumber(1))
      .default(60),
    envOption('--keep-alive-timeout <s>', 'seconds an idle keep-alive connection stays open')
      .argParser(wholeNumber(0))
      .default(5),
  ];
}

/** What the operating flags set up for the server. */
export interface ServeOps {
  log: Logger;
  ops: Required<Pick<OpsOptions, 'readiness' | 'log'>> & OpsOptions;
  limits: HttpLimits;
}

export function createServeOps(options: ServeOpsOptions): ServeOps {
  const log = createLogger({ level: options.logLevel, format: options.logFormat });
  return {
    log,
    ops: {
      log,
      readiness: createReadiness(),
      metrics: options.metrics === 'on' ? createPlatformMetrics() : undefined,
    },
    limits: {
      maxConnections: options.maxConnections,
      requestTimeoutMs: options.requestTimeout * 1000,
      headersTimeoutMs: options.headersTimeout * 1000,
      keepAliveTimeoutMs: options.keepAliveTimeout * 1000,
    },
  };
}

/**
 * The drain time: as given, else 30 s, or none on a virtual clock, whose calls move only when
 * someone sends `POST /sim/Advance` (waiting would only delay the exit).
 */
export function drainSecondsOf(options: { drainSeconds?: number; clock?: string }): number {
  return options.drainSeconds ?? (options.clock === 'virtual' ? 0 : 30);
}

/** What signal handling needs of a running server. */
export interface Drainable {
  drain(deadline: Promise<unknown>): Promise<void>;
  /** `graceMs`: how long requests in flight (final status callbacks) may finish. */
  close(options?: { graceMs?: number }): Promise<void>;
  readonly engine: { readonly liveCount: number };
}

/**
 * SIGTERM/SIGINT: drain (new calls refused, live ones run up to `drainSeconds`), then close
 * (the rest are ended with their final records) and exit 0. A second signal ends the wait at
 * once (and the close's grace for requests in flight); a third exits without waiting for anything.
 * Returns the handler, to stop the same way for another cause (`reason` is logged).
 */
export function drainOnSignals(
  server: Drainable,
  drainSeconds: number,
  log: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): (signal: NodeJS.Signals, reason?: string) => void {
  let signals = 0;
  let release: () => void = () => undefined;
  const deadline = new Promise<void>((resolve) => {
    release = resolve;
  });
  const onSignal = (signal: NodeJS.Signals, reason?: string) => {
    signals++;
    if (signals === 1) {
      log.info(
        { signal, ...(reason ? { reason } : {}), drainSeconds, liveCalls: server.engine.liveCount },
        'draining: new calls are refused',
      );
      const timer = setTimeout(release, drainSeconds * 1000);
      void server
        .drain(deadline)
        .then(() => {
          clearTimeout(timer);
          const left = server.engine.liveCount;
          log.info(
            { liveCalls: left },
            left > 0 ? 'drain time over: ending the live calls' : 'no live call left',
          );
          // After a second signal, requests still in flight are not waited for either.
          return server.close(signals >= 2 ? { graceMs: 0 } : {});
        })
        .then(
          () => {
            log.info('stopped');
            exit(0);
          },
          (err: unknown) => {
            log.error({ err }, 'could not stop cleanly');
            exit(1);
          },
        );
    } else if (signals === 2) {
      log.warn({ signal }, 'second signal: ending the live calls now');
      release();
    } else {
      log.warn({ signal }, 'third signal: exiting now');
      exit(1);
    }
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return onSignal;
}

const DAY_MS = 86_400_000;

/**
 * `--retain-days`: prunes records older than `days` now and then every `everyMs` (default one
 * hour), in small batches with a turn of the event loop between them. Returns the stop.
 */
export function scheduleRetention(
  store: Prunable,
  days: number,
  log: Logger,
  options: { everyMs?: number; now?: () => number; batchSize?: number } = {},
): { stop(): Promise<void>; readonly running: Promise<void> | undefined } {
  const now = options.now ?? Date.now;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    const before = now() - days * DAY_MS;
    running = pruneOlderThan(store, before, { batchSize: options.batchSize })
      .then(
        (counts) => {
          const removed = totalPruned(counts);
          log[removed > 0 ? 'info' : 'debug'](
            { ...counts, before: new Date(before).toISOString() },
            'retention',
          );
        },
        (err: unknown) => log.error({ err }, 'retention failed'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, options.everyMs ?? 3_600_000);
  timer.unref();
  return {
    get running() {
      return running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
