import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WriteState } from '../../src/store/ports.js';
import { StoreOverflowError, StoreUnavailableError, WriteQueue } from '../../src/store/write-queue.js';

/** A store double: commits strings to `rows`; fails on demand, as a full disk or a bad write would. */
function fakeStore() {
  const rows: string[] = [];
  const commits: string[][] = [];
  let down: Error | undefined;
  const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  const commit = (batch: readonly string[]) => {
    if (down) throw down;
    if (batch.some((w) => w.startsWith('bad')))
      throw new Error(`constraint failed: ${batch.find((w) => w.startsWith('bad'))}`);
    rows.push(...batch);
    commits.push([...batch]);
    return batch.map((w) => `ok:${w}`);
  };
  return {
    rows,
    commits,
    commit,
    fail: () => {
      down = full();
    },
    recover: () => {
      down = undefined;
    },
    transient: (err: unknown) => (err as { code?: string }).code === 'SQLITE_FULL',
  };
}

describe('WriteQueue (group commit)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('commits the writes of one turn in one transaction, in order, and tells each its result', async () => {
    const db = fakeStore();
    const q = new WriteQueue(db.commit, { log: () => undefined });
    const batches: number[] = [];
    q.onBatch((b) => batches.push(b.size));
    const results = [q.write('a'), q.write('b'), q.write('c')];
    expect(db.rows).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(await Promise.all(results)).toEqual(['ok:a', 'ok:b', 'ok:c']);
    expect(db.commits).toEqual([['a', 'b', 'c']]);
    expect(batches).toEqual([3]);
    expect(q.state()).toEqual({ writable: true, queued: 0, dropped: 0 });
  });

  it('keeps every write, in order, whatever the batch size and the turns they come in (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 999 }), { maxLength: 8 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 5 }),
        async (turns, maxBatch) => {
          const db = fakeStore();
          const q = new WriteQueue(db.commit, { maxBatch, log: () => undefined });
          const all: Promise<unknown>[] = [];
          for (const turn of turns) {
            for (const n of turn) all.push(q.write(String(n)));
            await vi.advanceTimersByTimeAsync(0);
          }
          await vi.advanceTimersByTimeAsync(0);
          await Promise.all(all);
          expect(db.rows).toEqual(turns.flat().map(String));
          expect(db.commits.every((c) => c.length <= maxBatch)).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('waits up to delayMs for more writes, and commits a full batch at once', async () => {
    const db = fakeStore();
    const q = new WriteQueue(db.commit, { delayMs: 5, maxBatch: 3, log: () => undefined });
    void q.write('a');
    await vi.advanceTimersByTimeAsync(2);
    void q.write('b');
    expect(db.commits).toEqual([]);
    await vi.advanceTimersByTimeAsync(3);
    expect(db.commits).toEqual([['a', 'b']]);
    void q.write('c');
    void q.write('d');
    void q.write('e');
    await vi.advanceTimersByTimeAsync(0);
    expect(db.commits).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('fails only the bad write of a batch', async () => {
    const db = fakeStore();
    const q = new WriteQueue(db.commit, { transient: db.transient, log: () => undefined });
    const [a, bad, c] = [q.write('a'), q.write('bad1'), q.write('c')];
    const refused = expect(bad).rejects.toThrow(/constraint failed: bad1/);
    await vi.advanceTimersByTimeAsync(0);
    await expect(a).resolves.toBe('ok:a');
    await refused;
    await expect(c).resolves.toBe('ok:c');
    expect(db.rows).toEqual(['a', 'c']);
    expect(q.writable).toBe(true);
  });

  it('holds writes while the store cannot write, retries with backoff, and commits them once it can', async () => {
    const db = fakeStore();
    const lines: string[] = [];
    const q = new WriteQueue(db.commit, {
      transient: db.transient,
      retryMs: { first: 10, max: 40 },
      log: (l) => lines.push(l),
    });
    const states: WriteState[] = [];
    q.onState((s) => states.push(s));
    db.fail();
    const held = [q.write('a'), q.write('b')];
    let settled = false;
    Promise.all(held).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(q.state()).toEqual({ writable: false, queued: 2, dropped: 0, error: 'database or disk is full' });
    expect(states).toEqual([{ writable: false, queued: 2, dropped: 0, error: 'database or disk is full' }]);
    // Writes a client waits for are refused at once, not held.
    await expect(q.write('client', { failFast: true })).rejects.toBeInstanceOf(StoreUnavailableError);
    const late = q.write('c');
    // 10, 20, 40, 40 ms: four retries, all failing.
    await vi.advanceTimersByTimeAsync(110);
    expect(settled).toBe(false);
    expect(db.rows).toEqual([]);
    db.recover();
    await vi.advanceTimersByTimeAsync(40);
    expect(await Promise.all([...held, late])).toEqual(['ok:a', 'ok:b', 'ok:c']);
    expect(db.rows).toEqual(['a', 'b', 'c']);
    expect(q.state()).toEqual({ writable: true, queued: 0, dropped: 0 });
    expect(states.at(-1)).toEqual({ writable: true, queued: 0, dropped: 0 });
    expect(lines).toEqual([
      'rcml: the store cannot write (database or disk is full); 2 write(s) held, retrying',
      'rcml: the store writes again',
    ]);
  });

  it('refuses writes past its bound while the store cannot write, and says so once per outage', async () => {
    const db = fakeStore();
    const lines: string[] = [];
    const q = new WriteQueue(db.commit, {
      transient: db.transient,
      maxQueued: 3,
      retryMs: { first: 10, max: 10 },
      log: (l) => lines.push(l),
    });
    const told: number[] = [];
    // The report itself (a notification) gets through.
    q.onOverflow((dropped) => {
      told.push(dropped);
      void q.write(`report ${dropped}`);
    });
    db.fail();
    const kept = ['a', 'b', 'c'].map((w) => q.write(w));
    await vi.advanceTimersByTimeAsync(0);
    await expect(q.write('d')).rejects.toBeInstanceOf(StoreOverflowError);
    await expect(q.write('e')).rejects.toBeInstanceOf(StoreOverflowError);
    expect(told).toEqual([1]);
    expect(q.state()).toMatchObject({ writable: false, queued: 4, dropped: 2 });
    db.recover();
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all(kept);
    expect(db.rows).toEqual(['a', 'b', 'c', 'report 1']);
    expect(lines.filter((l) => /queue is full/.test(l))).toHaveLength(1);
    expect(lines.at(-1)).toBe('rcml: the store writes again; 2 record(s) were dropped while it could not');
  });

  it('commits synchronously on flushNow, so a reader sees every earlier write', async () => {
    const db = fakeStore();
    const q = new WriteQueue(db.commit, { delayMs: 50, log: () => undefined });
    void q.write('a');
    q.flushNow();
    expect(db.rows).toEqual(['a']);
  });
});
