/**
 * Arrivals by name that a node makes in the same tick, sent to Redis as one script: a busy node
 * (many calls reaching queues at once) pays one round trip, one write and one script run for
 * them all instead of one each. The script runs them one after the other, as the same scripts
 * sent back to back would, so the outcomes are the same; a lone arrival is a batch of one.
 */
import { ARRIVE_NAMED_MANY, type Reply } from './redis-scripts.js';

/**
 * Arrivals in one script at most; the rest go in the next, sent at once behind it. Small, so
 * that Redis runs one batch while the node prepares the next (a node's arrivals of one tick tend
 * to come back together, and one batch of all of them would leave each side idle in turn).
 */
export const MAX_BATCH = 4;

type Send = (lua: string, keys: string[], args: Array<string | number>) => Promise<Reply>;

interface Pending {
  resolve(reply: Reply[]): void;
  reject(err: unknown): void;
}

/** Values of one arrival after its names key, as `ARRIVE_NAMED_MANY` takes them (6). */
export type ArrivalArgs = [
  name: string,
  knownSid: string,
  callSid: string,
  memberJson: string,
  now: number,
  side: string,
];

export class ArrivalBatch {
  // The next script's keys and arguments, built as arrivals come (the prefix first).
  private keys: string[] = [];
  private args: Array<string | number>;
  private pending: Pending[] = [];

  /** `send` runs a script (the store's, behind its gate); `prefix` starts every key, with its colon. */
  constructor(
    private readonly send: Send,
    private readonly prefix: string,
  ) {
    this.args = [prefix];
  }

  /**
   * Queues one arrival (its names key and {@link ArrivalArgs}), sent when the current tick's
   * work is done, or at once when {@link MAX_BATCH} are waiting. Resolves with its reply as
   * `ARRIVE_NAMED_MANY`'s for it; rejects with the script's error for it alone.
   */
  add(key: string, values: ArrivalArgs): Promise<Reply[]> {
    return new Promise((resolve, reject) => {
      this.keys.push(key);
      for (const v of values) this.args.push(v);
      const n = this.pending.push({ resolve, reject });
      if (n >= MAX_BATCH) this.flush();
      else if (n === 1) process.nextTick(() => this.flush());
    });
  }

  /**
   * Sends what waits now. The store calls it before any other command, so that a process's
   * operations still reach Redis in the order they were made.
   */
  flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    const { keys, args } = this;
    this.pending = [];
    this.keys = [];
    this.args = [this.prefix];
    this.send(ARRIVE_NAMED_MANY, keys, args).then(
      (replies) => {
        const all = replies as Reply[][];
        for (let i = 0; i < batch.length; i++) {
          const reply = all[i] as Reply[];
          const p = batch[i] as Pending;
          if (reply[0] === 'error') p.reject(new Error(String(reply[1])));
          else p.resolve(reply);
        }
      },
      (err) => {
        for (const p of batch) p.reject(err);
      },
    );
  }
}
