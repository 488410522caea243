/**
 * Readiness: named checks (the store, PostgreSQL, Redis, anything a layer adds) run together on
 * `GET /ready`. A check resolves when its part is usable and throws (or times out) otherwise.
 */

/** One part the server needs: resolves when usable, rejects with why not. */
export type ReadinessCheck = () => Promise<void> | void;

/** What one check found. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** Why not, secrets removed. */
  error?: string;
  /** How long it took, milliseconds. */
  ms: number;
}

/** The outcome of every check. */
export interface ReadinessReport {
  ready: boolean;
  checks: CheckResult[];
}

/** A registry of named checks. */
export interface Readiness {
  /** Adds (or replaces) the check called `name`. */
  register(name: string, check: ReadinessCheck): void;
  /** Removes a check; false when there was none. */
  unregister(name: string): boolean;
  /** Names of the checks, in registration order. */
  names(): string[];
  /** Runs every check at once, each bounded by the timeout. */
  run(): Promise<ReadinessReport>;
}

/** Options of {@link createReadiness}. */
export interface ReadinessOptions {
  /** A check still pending after this long fails. Default 2000 ms. */
  timeoutMs?: number;
}

const CREDENTIALS_IN_URL = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*(?::[^/\s@]*)?@/gi;

/** Removes credentials embedded in URLs (`postgres://user:secret@host`) from a message. */
export function redactUrls(text: string): string {
  return text.replace(CREDENTIALS_IN_URL, '$1***@');
}

function messageOf(err: unknown): string {
  const message = err instanceof Error ? err.message || err.name : String(err);
  return redactUrls(message).slice(0, 200);
}

export function createReadiness(options: ReadinessOptions = {}): Readiness {
  const timeoutMs = options.timeoutMs ?? 2000;
  const checks = new Map<string, ReadinessCheck>();

  const runOne = async (name: string, check: ReadinessCheck): Promise<CheckResult> => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
    });
    try {
      await Promise.race([Promise.resolve().then(check), timeout]);
      return { name, ok: true, ms: Math.round(performance.now() - started) };
    } catch (err) {
      return { name, ok: false, error: messageOf(err), ms: Math.round(performance.now() - started) };
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    register(name, check) {
      checks.set(name, check);
    },
    unregister: (name) => checks.delete(name),
    names: () => [...checks.keys()],
    async run() {
      const results = await Promise.all([...checks].map(([name, check]) => runOne(name, check)));
      return { ready: results.every((r) => r.ok), checks: results };
    },
  };
}
