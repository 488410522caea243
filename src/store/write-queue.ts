/**
 * Group commit shared by the SQLite and PostgreSQL stores. Every write queued during one turn of
 * the event loop (up to `maxBatch`) is committed in one transaction, in the order it was made,
 * so writes never overtake one another and a burst costs one commit.
 *
 * Failures are contained here. When a batch fails because the store cannot write for now (full
 * disk, I/O error, lock timeout, lost connection: `transient`), its writes go back to the head
 * of the queue and are retried with backoff until they commit; meanwhile the store reports
 * itself not writable, and the queue holds at most `maxQueued` writes (beyond that a write is
 * refused, and the first refusal of an outage is logged and told to `onOverflow` listeners).
 * Writes marked `failFast` (those a client waits for) are refused at once instead of waiting
 * out an outage. Any other failure is the write's own: a failed batch is retried one write at a
 * time, so one bad write fails only itself.
 */
import type { StoreWrites, WriteBatch, WriteState } from './ports.js';

/** Commits a batch in one transaction: each write's result, or a throw having committed nothing. */
export type Committer<W> = (batch: readonly W[]) => unknown[] | Promise<unknown[]>;

/** Options of {@link WriteQueue}. */
export interface WriteQueueOptions {
  /** Writes per transaction at most; a full batch commits at once. Default 2000. */
  maxBatch?: number;
  /**
   * How long the first write of a batch waits for others, ms. 0 (default): until the end of the
   * current event-loop turn. A few ms let a call's changes in quick succession (queued, ringing,
   * answered) become one write.
   */
  delayMs?: number;
  /** Writes held while the store cannot write, at most. Default 100,000. */
  maxQueued?: number;
  /** Whether an error means "cannot write for now" (retry) rather than "this write is bad". */
  transient?: (err: unknown) => boolean;
  /** First and longest wait between retries, ms. Default 25 and 2000. */
  retryMs?: { first: number; max: number };
  /** Where outages and their end are reported. Default stderr. */
  log?: (line: string) => void;
}

/** Refusal of a write because the store cannot write for now. */
export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/** Refusal of a write because the queue of an unwritable store is full. */
export class StoreOverflowError extends StoreUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'StoreOverflowError';
  }
}

interface Pending<W> {
  write: W;
  failFast: boolean;
  resolve: (result: unknown) => void;
  reject: (err: unknown) => void;
}

const isPromise = (x: unknown): x is Promise<unknown> =>
  typeof (x as Promise<unknown> | undefined)?.then === 'function';

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class WriteQueue<W> implements StoreWrites {
  private queue: Pending<W>[] = [];
  private running: Promise<void> | undefined;
  private scheduled: NodeJS.Immediate | NodeJS.Timeout | undefined;
  private scheduledNow = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private backoff: number;
  private closed = false;
  private writableNow = true;
  private lastError: string | undefined;
  private droppedTotal = 0;
  private droppedInOutage = 0;
  private reporting = false;
  private readonly batchHooks = new Set<(batch: WriteBatch) => void>();
  private readonly stateHooks = new Set<(state: WriteState) => void>();
  private readonly overflowHooks = new Set<(dropped: number) => void>();
  private readonly maxBatch: number;
  private readonly delayMs: number;
  private readonly maxQueued: number;
  private readonly transient: (err: unknown) => boolean;
  private readonly retryMs: { first: number; max: number };
  private readonly log: (line: string) => void;

  constructor(
    private readonly commit: Committer<W>,
    options: WriteQueueOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 2000;
    this.delayMs = options.delayMs ?? 0;
    this.maxQueued = options.maxQueued ?? 100_000;
    this.transient = options.transient ?? (() => false);
    this.retryMs = options.retryMs ?? { first: 25, max: 2000 };
    this.backoff = this.retryMs.first;
    this.log = options.log ?? ((line) => console.error(line));
  }

  /**
   * Queues a write; resolves with its result once committed. `failFast`: refused with a
   * {@link StoreUnavailableError} rather than held while the store cannot write.
   */
  write<T = unknown>(write: W, options: { failFast?: boolean } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    if (!this.writableNow && options.failFast) {
      return Promise.reject(new StoreUnavailableError(`the store cannot write: ${this.lastError}`));
    }
    // The overflow's own report (a notification) is let through.
    if (this.queue.length >= this.maxQueued && !this.reporting) return Promise.reject(this.overflow());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        write,
        failFast: options.failFast ?? false,
        resolve: resolve as (r: unknown) => void,
        reject,
      });
      this.schedule();
    });
  }

  get writable(): boolean {
    return this.writableNow;
  }

  get queued(): number {
    return this.queue.length;
  }

  state(): WriteState {
    return {
      writable: this.writableNow,
      queued: this.queue.length,
      dropped: this.droppedTotal,
      ...(this.lastError === undefined || this.writableNow ? {} : { error: this.lastError }),
    };
  }

  onBatch(hook: (batch: WriteBatch) => void): () => void {
    this.batchHooks.add(hook);
    return () => this.batchHooks.delete(hook);
  }

  onState(hook: (state: WriteState) => void): () => void {
    this.stateHooks.add(hook);
    return () => this.stateHooks.delete(hook);
  }

  onOverflow(hook: (dropped: number) => void): () => void {
    this.overflowHooks.add(hook);
    return () => this.overflowHooks.delete(hook);
  }

  /** True when no write is queued or committing. */
  get idle(): boolean {
    return this.queue.length === 0 && this.running === undefined;
  }

  /**
   * Resolves once every write queued so far is committed or has failed, or at once while the
   * store cannot write (readers then see what is committed rather than wait out the outage).
   */
  async settled(): Promise<void> {
    while (!this.idle && this.writableNow) {
      if (this.running) await this.running;
      else await new Promise<void>((r) => setImmediate(r));
    }
  }

  /**
   * Commits what is queued now, before returning, when the committer is synchronous and the
   * store writable: a reader of a synchronous store calls it first to see every earlier write.
   */
  flushNow(): void {
    if (this.writableNow && !this.retryTimer) this.pump();
  }

  /** Drains the queue (while writable: a retry drains once, and goes on only if that commits). */
  private pump(): void {
    while (this.queue.length > 0 && this.running === undefined && !this.closed) {
      const out = this.drain();
      if (isPromise(out)) {
        this.track(out);
        return;
      }
      if (!this.writableNow) return;
    }
  }

  /** Stops retrying; writes still queued are refused (the count is logged). */
  close(): void {
    this.closed = true;
    if (this.scheduled) {
      if (this.scheduledNow) clearImmediate(this.scheduled as NodeJS.Immediate);
      else clearTimeout(this.scheduled as NodeJS.Timeout);
      this.scheduled = undefined;
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const left = this.queue.splice(0);
    if (left.length > 0) this.log(`rcml: store closed with ${left.length} write(s) not committed`);
    for (const p of left) p.reject(new StoreUnavailableError('the store closed before this write committed'));
  }

  private overflow(): StoreOverflowError {
    this.droppedTotal++;
    this.droppedInOutage++;
    if (this.droppedInOutage === 1) {
      this.log(
        `rcml: the store cannot write and its queue is full (${this.maxQueued} writes): further records are dropped until it recovers`,
      );
      this.reporting = true;
      try {
        for (const hook of this.overflowHooks) hook(this.droppedTotal);
      } finally {
        this.reporting = false;
      }
    }
    return new StoreOverflowError(`the store's write queue is full (${this.maxQueued} writes)`);
  }

  private schedule(): void {
    if (this.running || this.retryTimer || this.closed) return;
    const now = this.delayMs === 0 || this.queue.length >= this.maxBatch;
    if (this.scheduled) {
      // A full batch does not wait out the delay.
      if (!now || this.scheduledNow) return;
      clearTimeout(this.scheduled as NodeJS.Timeout);
    }
    const fire = () => {
      this.scheduled = undefined;
      this.pump();
    };
    this.scheduledNow = now;
    this.scheduled = now ? setImmediate(fire) : setTimeout(fire, this.delayMs);
  }

  private track(run: Promise<void>): void {
    this.running = run.finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) this.schedule();
    });
  }

  /** Commits the head of the queue; a promise only when the committer is asynchronous. */
  private drain(): void | Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    const started = performance.now();
    const done = (results: unknown[]) => {
      for (const [i, p] of batch.entries()) p.resolve(results[i]);
      this.recovered();
      const ms = performance.now() - started;
      for (const hook of this.batchHooks) hook({ size: batch.length, ms });
    };
    let out: unknown[] | Promise<unknown[]>;
    try {
      out = this.commit(batch.map((p) => p.write));
    } catch (err) {
      return this.failed(batch, err);
    }
    if (isPromise(out)) return out.then(done, (err) => this.failed(batch, err));
    done(out);
  }

  /** A failed batch: held for a retry when the store cannot write, else retried write by write. */
  private failed(batch: Pending<W>[], err: unknown): void | Promise<void> {
    if (this.transient(err)) return this.hold(batch, err);
    if (batch.length === 1) {
      batch[0].reject(err);
      return;
    }
    return this.oneByOne(batch, 0);
  }

  private oneByOne(batch: Pending<W>[], from: number): void | Promise<void> {
    for (let i = from; i < batch.length; i++) {
      const p = batch[i];
      let out: unknown[] | Promise<unknown[]>;
      try {
        out = this.commit([p.write]);
      } catch (err) {
        if (this.transient(err)) return this.hold(batch.slice(i), err);
        p.reject(err);
        continue;
      }
      if (isPromise(out)) {
        return out.then(
          (r) => {
            p.resolve(r[0]);
            this.recovered();
            return this.oneByOne(batch, i + 1);
          },
          (err) => {
            if (this.transient(err)) return this.hold(batch.slice(i), err);
            p.reject(err);
            return this.oneByOne(batch, i + 1);
          },
        );
      }
      p.resolve(out[0]);
      this.recovered();
    }
  }

  /** The store cannot write: the writes go back to the head of the queue, retried later. */
  private hold(batch: Pending<W>[], err: unknown): void {
    const kept = batch.filter((p) => !p.failFast);
    const why = describe(err);
    for (const p of batch)
      if (p.failFast) p.reject(new StoreUnavailableError(`the store cannot write: ${why}`));
    // Held writes keep their place; failFast writes queued behind them are refused too.
    const rest = this.queue.filter((p) => !p.failFast);
    for (const p of this.queue)
      if (p.failFast) p.reject(new StoreUnavailableError(`the store cannot write: ${why}`));
    this.queue = kept.concat(rest);
    this.lastError = why;
    if (this.writableNow) {
      this.writableNow = false;
      this.log(`rcml: the store cannot write (${why}); ${this.queue.length} write(s) held, retrying`);
      this.changed();
    }
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.schedule();
    }, this.backoff);
    this.backoff = Math.min(this.backoff * 2, this.retryMs.max);
  }

  private recovered(): void {
    this.backoff = this.retryMs.first;
    if (this.writableNow) return;
    this.writableNow = true;
    const dropped = this.droppedInOutage;
    this.droppedInOutage = 0;
    this.log(
      `rcml: the store writes again${dropped > 0 ? `; ${dropped} record(s) were dropped while it could not` : ''}`,
    );
    this.changed();
  }

  private changed(): void {
    const state = this.state();
    for (const hook of this.stateHooks) hook(state);
  }
}
