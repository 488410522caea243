import type pg from 'pg';

/** One statement of a write. */
export interface Statement {
  text: string;
  values: unknown[];
  /** Named statements are prepared once per connection. */
  name?: string;
}

/**
 * One logical write: its statements run in order, in one transaction with the others of its
 * batch. `run` may instead drive the client itself (for multi-statement writes that depend on
 * earlier results); it must not commit.
 */
export type Write = { statements: Statement[] } | { run: (client: pg.PoolClient) => Promise<unknown> };

interface Pending {
  write: Write;
  resolve: (result: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit over a pool: every write made during one event-loop turn is committed in one
 * transaction, in the order it was made, on one connection. Writes therefore never overtake one
 * another (a call's `completed` never lands before its `ringing`), and a burst costs one commit.
 * When a batch fails, each of its writes is retried alone, so one bad write fails only itself.
 */
export class GroupWriter {
  private queue: Pending[] = [];
  private running: Promise<void> | undefined;
  private scheduled = false;

  constructor(private readonly pool: pg.Pool) {}

  /** Queues a write; resolves with the last statement's result (or `run`'s) once committed. */
  write<T = pg.QueryResult>(write: Write): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (r: unknown) => void, reject });
      this.schedule();
    });
  }

  /** True when no write is queued or committing. */
  get idle(): boolean {
    return this.queue.length === 0 && this.running === undefined;
  }

  /** Resolves once every write queued so far is committed (or has failed). */
  async settled(): Promise<void> {
    while (!this.idle) {
      if (this.running) await this.running;
      else await new Promise<void>((r) => setImmediate(r));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.running = this.drain().finally(() => {
        this.running = undefined;
        if (this.queue.length > 0) this.schedule();
      });
    });
  }

  private async drain(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    try {
      const results = await this.commit(client, batch);
      if (results) {
        for (const [i, p] of batch.entries()) p.resolve(results[i]);
        return;
      }
      if (batch.length === 1) return;
      for (const p of batch) {
        const one = await this.commit(client, [p]);
        if (one) p.resolve(one[0]);
      }
    } finally {
      client.release();
    }
  }

  /** Runs the writes in one transaction: their results, or undefined after rejecting a lone failure. */
  private async commit(client: pg.PoolClient, batch: Pending[]): Promise<unknown[] | undefined> {
    const results: unknown[] = [];
    try {
      await client.query('BEGIN');
      for (const { write } of batch) {
        if ('run' in write) {
          results.push(await write.run(client));
          continue;
        }
        let last: unknown;
        for (const s of write.statements) last = await client.query(s);
        results.push(last);
      }
      await client.query('COMMIT');
      return results;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (batch.length === 1) batch[0].reject(err);
      return undefined;
    }
  }
}
