/**
 * Arrivals by name that a node makes in the same tick, sent to Redis as one script: a busy node
 * (many calls reaching queues at once) pays one round trip, one write and one script run for
 * them all instead of one each. The script runs them one after the other, as the same scripts
 * sent back to back would, so the outcomes are the same; a lone arrival goes as before.
 */
import { ARRIVE_NAMED, ARRIVE_NAMED_MANY, type Reply } from './redis-scripts.js';

/**
 * Arrivals in one script at most; the rest go in the next, sent at once behind it. Small, so
 * that Redis runs one batch while the node prepares the next (a node's arrivals of one tick tend
 * to come back together, and one batch of all of them would leave each side idle in turn).
 */
export const MAX_BATCH = 4;

type Send = (lua: string, keys: string[], args: Array<string | number>) => Promise<Reply>;

interface Pending {
  key: string;
  args: Array<string | number>;
  resolve(reply: Reply[]): void;
  reject(err: unknown): void;
}

export class ArrivalBatch {
  private pending: Pending[] = [];

  /** `send` runs a script (the store's, behind its gate); `prefix` starts every key, with its colon. */
  constructor(
    private readonly send: Send,
    private readonly prefix: string,
  ) {}

  /**
   * Queues one arrival (its names key; name, callSid, member JSON, now, own side, other side),
   * sent when the current tick's work is done, or at once when {@link MAX_BATCH} are waiting.
   * Resolves with its reply as `ARRIVE_NAMED`'s; rejects with the script's error for it alone.
   */
  add(key: string, args: Array<string | number>): Promise<Reply[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ key, args, resolve, reject });
      if (this.pending.length >= MAX_BATCH) this.flush();
      else if (this.pending.length === 1) process.nextTick(() => this.flush());
    });
  }

  /**
   * Sends what waits now. The store calls it before any other command, so that a process's
   * operations still reach Redis in the order they were made.
   */
  flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 1) {
      const [one] = batch as [Pending];
      this.send(ARRIVE_NAMED, [one.key], [...one.args, this.prefix]).then(
        (reply) => one.resolve(reply as Reply[]),
        one.reject,
      );
      return;
    }
    this.send(
      ARRIVE_NAMED_MANY,
      batch.map((p) => p.key),
      [this.prefix, ...batch.flatMap((p) => p.args)],
    ).then(
      (replies) => {
        (replies as Reply[][]).forEach((reply, i) => {
          const p = batch[i] as Pending;
          if (reply[0] === 'error') p.reject(new Error(String(reply[1])));
          else p.resolve(reply);
        });
      },
      (err) => {
        for (const p of batch) p.reject(err);
      },
    );
  }
}
