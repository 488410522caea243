/**
 * A node's lease on its own calls, as the node itself sees it. The node's heartbeat key in
 * Redis expires `ttlMs` after it was last set; a survivor takes the node over only once it has.
 * The node counts its lease from the moment it *sent* its last confirmed beat (before Redis set
 * the key), on its monotonic clock, less a margin for clock rate differences: so the node sees
 * its lease lapse before any survivor can see the key expire, and it stops sending webhooks
 * and touching its queues from then until it has renewed the lease, or for good once it learns
 * it was taken over (fenced). Writes to the database are fenced there (see
 * `store/postgres/leases.ts`): this guards what the database cannot.
 */

/** What a node with a lapsed lease waits for: renewed (go on) or fenced (never go on). */
type Waiter = () => void;

export class NodeLease {
  private validUntil: number;
  /** Since when the lease has been held without a lapse. */
  private validSince: number;
  private fencedWhy: string | undefined;
  private waiters: Waiter[] = [];
  private readonly fencedListeners = new Set<(why: string) => void>();

  /**
   * @param ttlMs the heartbeat key's TTL.
   * @param now a monotonic clock in ms (a frozen process's clock runs on while it is stopped).
   */
  constructor(
    readonly ttlMs: number,
    readonly now: () => number = () => performance.now(),
  ) {
    this.validSince = this.now();
    this.validUntil = this.validSince + this.span;
  }

  /** How long after a beat was sent the lease is held: the TTL less a tenth for clock rates. */
  private get span(): number {
    return this.ttlMs - Math.max(1, Math.floor(this.ttlMs / 10));
  }

  /** Redis confirmed a beat sent at `sentAt` (a reading of the same clock). */
  confirmed(sentAt: number): void {
    if (this.fencedWhy !== undefined) return;
    if (!this.valid) this.validSince = this.now();
    this.validUntil = Math.max(this.validUntil, sentAt + this.span);
    if (this.valid) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Whether the node may act now: not fenced, and its last confirmed beat is recent enough. */
  get valid(): boolean {
    return this.fencedWhy === undefined && this.now() < this.validUntil;
  }

  /**
   * How long the lease has been held without a lapse (0 while it is not): a node judges others
   * only once it has held its own for a TTL, so that after an outage of Redis that every node
   * saw, each had a beat's time to renew before any is taken for dead.
   */
  get heldFor(): number {
    return this.valid ? this.now() - this.validSince : 0;
  }

  /** Why the node was fenced off, once it was. */
  get fenced(): string | undefined {
    return this.fencedWhy;
  }

  /**
   * Undefined while the lease is valid (act now); else a promise that settles once it is
   * renewed, and never once the node is fenced (what waits on it is dropped with the node).
   */
  whenValid(): Promise<void> | undefined {
    if (this.valid) return undefined;
    return new Promise((resolve) => {
      if (this.fencedWhy === undefined) this.waiters.push(resolve);
    });
  }

  /** The node learnt it was taken over (or started again elsewhere): it stops acting for good. */
  fence(why: string): void {
    if (this.fencedWhy !== undefined) return;
    this.fencedWhy = why;
    this.waiters = [];
    for (const listener of [...this.fencedListeners]) listener(why);
  }

  /** `listener` hears the reason, once, when the node is fenced off. */
  onFenced(listener: (why: string) => void): () => void {
    this.fencedListeners.add(listener);
    return () => this.fencedListeners.delete(listener);
  }
}
