/**
 * Retention: removing calls, recordings (row and audio together), gathers, notifications and
 * ended conference rooms older than a cut-off, a small batch at a time so that a running server
 * keeps serving.
 */

/** How many records of each kind were removed. */
export interface PruneCounts {
  calls: number;
  recordings: number;
  gathers: number;
  notifications: number;
  /** Conference rooms that had ended (a room still open stays, however old). */
  conferences: number;
}

/** A store that can remove old records. */
export interface Prunable {
  /**
   * Removes up to `limit` records of each kind (per account) created before `before` (ms since
   * the epoch), live calls and open conference rooms never; a recording's audio goes with its row.
   */
  pruneBatch(before: number, limit: number): Promise<PruneCounts>;
}

/** Whether `store` can prune (SQLite and PostgreSQL stores can; the memory store cannot). */
export function isPrunable<T extends object>(store: T): store is T & Prunable {
  return typeof (store as Partial<Prunable>).pruneBatch === 'function';
}

export const emptyCounts = (): PruneCounts => ({
  calls: 0,
  recordings: 0,
  gathers: 0,
  notifications: 0,
  conferences: 0,
});

/** How many records a count names, of every kind. */
export const totalPruned = (c: PruneCounts) =>
  c.calls + c.recordings + c.gathers + c.notifications + c.conferences;

/** Options of {@link pruneOlderThan}. */
export interface PruneOptions {
  /** Records of each kind per account and batch. Default 200. */
  batchSize?: number;
  /** Runs between batches; default: one turn of the event loop, so requests interleave. */
  pause?: () => Promise<void>;
}

/** Prunes batch after batch until nothing older than `before` is left. */
export async function pruneOlderThan(
  store: Prunable,
  before: number,
  options: PruneOptions = {},
): Promise<PruneCounts> {
  const batchSize = options.batchSize ?? 200;
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const sum = emptyCounts();
  for (;;) {
    const batch = await store.pruneBatch(before, batchSize);
    sum.calls += batch.calls;
    sum.recordings += batch.recordings;
    sum.gathers += batch.gathers;
    sum.notifications += batch.notifications;
    sum.conferences += batch.conferences;
    if (totalPruned(batch) === 0) return sum;
    await pause();
  }
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30d`, `12h`, `90m`, `45s` in milliseconds; undefined when not such a duration. */
export function parseAge(text: string): number | undefined {
  const m = /^(\d+)([smhd])$/.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * (UNITS[m[2] as string] as number);
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}
