/**
 * A hash map from call sid to a number, for lines of up to hundreds of thousands of calls.
 *
 * Why not `Map`: a `Map` lookup in a large table walks a bucket chain whose entries and key
 * strings sit anywhere in the heap, several cache misses each, so its cost grows with the
 * table. Here the probe sequence reads a dense array of 32-bit hashes (open addressing, linear
 * probing) and only touches a key string when its hash matches: about one cache miss per
 * operation at any size. Deleted slots become tombstones; the table is rebuilt, at twice the
 * live count, when live entries and tombstones fill half of it, so every step is amortised O(1).
 */

const EMPTY = 0;
const TOMBSTONE = 1;
const MIN_CAPACITY = 16;

/** FNV-1a of the UTF-16 units, with 0 and 1 kept free for empty slots and tombstones. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  return h === EMPTY || h === TOMBSTONE ? h + 2 : h;
}

export class SidIndex {
  private hashes = new Int32Array(MIN_CAPACITY);
  private keys: (string | undefined)[] = new Array(MIN_CAPACITY);
  private values = new Float64Array(MIN_CAPACITY);
  private live = 0;
  /** Live entries plus tombstones. */
  private used = 0;

  get size(): number {
    return this.live;
  }

  get(key: string): number | undefined {
    const slot = this.find(key, hashOf(key));
    return slot < 0 ? undefined : this.values[slot];
  }

  has(key: string): boolean {
    return this.find(key, hashOf(key)) >= 0;
  }

  /** Sets `key` to `value`, adding it when absent. */
  set(key: string, value: number): void {
    const hash = hashOf(key);
    const found = this.find(key, hash);
    if (found >= 0) {
      this.values[found] = value;
      return;
    }
    if ((this.used + 1) * 2 > this.hashes.length) this.rebuild();
    const mask = this.hashes.length - 1;
    let slot = hash & mask;
    while (this.hashes[slot] !== EMPTY && this.hashes[slot] !== TOMBSTONE) slot = (slot + 1) & mask;
    if (this.hashes[slot] === EMPTY) this.used++;
    this.hashes[slot] = hash;
    this.keys[slot] = key;
    this.values[slot] = value;
    this.live++;
  }

  /** Removes `key`; false when it was absent. */
  delete(key: string): boolean {
    const slot = this.find(key, hashOf(key));
    if (slot < 0) return false;
    this.hashes[slot] = TOMBSTONE;
    this.keys[slot] = undefined;
    this.live--;
    return true;
  }

  /** Slot holding `key`, or -1. */
  private find(key: string, hash: number): number {
    const mask = this.hashes.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const h = this.hashes[slot];
      if (h === EMPTY) return -1;
      if (h === hash && this.keys[slot] === key) return slot;
    }
  }

  private rebuild(): void {
    let capacity = MIN_CAPACITY;
    while (capacity < (this.live + 1) * 4) capacity *= 2;
    const { hashes, keys, values } = this;
    this.hashes = new Int32Array(capacity);
    this.keys = new Array(capacity);
    this.values = new Float64Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < hashes.length; i++) {
      const hash = hashes[i];
      if (hash === EMPTY || hash === TOMBSTONE) continue;
      let slot = hash & mask;
      while (this.hashes[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.hashes[slot] = hash;
      this.keys[slot] = keys[i];
      this.values[slot] = values[i];
    }
    this.used = this.live;
  }
}
