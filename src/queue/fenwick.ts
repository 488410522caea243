/**
 * A Fenwick (binary indexed) tree of 0/1 flags over slots 1..capacity: set, clear and count the
 * set slots up to an index in O(log capacity). A line uses it to count the holes left by members
 * removed before their turn, which a position must skip.
 */
export class Fenwick {
  private readonly tree: Int32Array;

  /** Builds the tree over `capacity` slots with the given slots set, in O(capacity). */
  constructor(
    readonly capacity: number,
    setSlots: Iterable<number> = [],
  ) {
    this.tree = new Int32Array(capacity + 1);
    for (const slot of setSlots) this.tree[slot] += 1;
    for (let i = 1; i <= capacity; i++) {
      const parent = i + (i & -i);
      if (parent <= capacity) this.tree[parent] += this.tree[i];
    }
  }

  /** Adds `delta` at `slot` (1-based). */
  add(slot: number, delta: number): void {
    for (let i = slot; i <= this.capacity; i += i & -i) this.tree[i] += delta;
  }

  /** Sum of slots 1..slot. */
  prefix(slot: number): number {
    let sum = 0;
    for (let i = slot; i > 0; i -= i & -i) sum += this.tree[i];
    return sum;
  }
}
