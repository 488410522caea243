/**
 * The server's structured log (pino): JSON lines, or a concise human format on a terminal.
 * Secrets (auth tokens, passwords, Authorization headers, credentials in URLs) never reach it.
 */
import { type Logger, type LoggerOptions, pino } from 'pino';
import { redactUrls } from './readiness.js';

export type { Logger } from 'pino';

/** Levels accepted by `--log-level`, most verbose first. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `json`: one JSON object a line; `human`: `time LEVEL message key=value...`. */
export type LogFormat = 'json' | 'human';

/** Options of {@link createLogger}. */
export interface LogOptions {
  /** Default `info`. */
  level?: LogLevel;
  /** Default: `human` when the destination is a terminal, `json` otherwise. */
  format?: LogFormat;
  /** Where lines go. Default standard error. */
  destination?: { write(line: string): unknown; isTTY?: boolean };
}

const SECRET_FIELDS = [
  'authToken',
  'auth_token',
  'authTokenHash',
  'signingKey',
  'password',
  'token',
  'secret',
];

/** Paths pino blanks out wherever they appear (top level and one object down). */
export const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  'headers.authorization',
  '*.headers.authorization',
];

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

const OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

function humanValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value !== null && typeof value === 'object' && 'message' in value) {
    const err = value as { type?: string; message?: string; stack?: string };
    return JSON.stringify(`${err.type ?? 'Error'}: ${err.message}`);
  }
  return JSON.stringify(value);
}

/** Renders one pino JSON line as `HH:MM:SS.mmm LEVEL message key=value ...`. */
export function humanLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toISOString().slice(11, 23);
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([k]) => !OMITTED.has(k))
    .map(([k, v]) => `${k}=${humanValue(v)}`);
  return `${time} ${level} ${String(entry.msg ?? '')}${fields.length ? ` ${fields.join(' ')}` : ''}\n`;
}

/** Serializes errors with their type and message, credentials in URLs removed. */
function errorSerializer(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: redactUrls(String(err)) };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: redactUrls(err.message),
    ...(code === undefined ? {} : { code }),
    ...(err.stack ? { stack: redactUrls(err.stack) } : {}),
  };
}

export function createLogger(options: LogOptions = {}): Logger {
  const destination = options.destination ?? process.stderr;
  const format = options.format ?? (destination.isTTY ? 'human' : 'json');
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: errorSerializer },
    base: { pid: process.pid },
  };
  if (format === 'json') {
    return pino(
      config,
      // Standard error asynchronously: a line costs no system call of its own on a busy server
      // (lines written meanwhile go out together), and pino writes what is left on exit.
      options.destination
        ? { write: (line: string) => destination.write(line) }
        : pino.destination({ dest: 2, sync: false }),
    );
  }
  return pino(config, { write: (line: string) => destination.write(humanLine(line)) });
}

/** A logger that drops everything (library default). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
