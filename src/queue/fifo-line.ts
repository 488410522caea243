import { QueueError } from './errors.js';
import { Fenwick } from './fenwick.js';
import type { QueueMember } from './types.js';

interface Node {
  member: QueueMember;
  /** Arrival slot in the Fenwick tree; slots only grow between renumberings, so they keep FIFO order. */
  slot: number;
  prev: Node | undefined;
  next: Node | undefined;
}

const MIN_CAPACITY = 16;

/**
 * One side of one queue: a doubly linked list for FIFO order and O(1) removal anywhere, a map
 * from call sid to node, and a Fenwick tree over arrival slots so a position is a prefix count
 * in O(log n). When slots run out the live members are renumbered 1..n into a tree twice their
 * number, so that cost is amortised O(1) per arrival and memory stays within 4x the peak.
 */
export class FifoLine {
  private head: Node | undefined;
  private tail: Node | undefined;
  private readonly nodes = new Map<string, Node>();
  private slots = new Fenwick(MIN_CAPACITY);
  private nextSlot = 1;

  get size(): number {
    return this.nodes.size;
  }

  has(callSid: string): boolean {
    return this.nodes.has(callSid);
  }

  /** Appends at the tail; returns the 1-based position (the new size). */
  push(member: QueueMember): number {
    if (this.nodes.has(member.callSid)) {
      throw new QueueError(
        'already-waiting',
        `call ${member.callSid} is already waiting on the ${member.side} side`,
      );
    }
    // An empty line has an all-zero tree: restart slots for free instead of renumbering.
    if (this.nodes.size === 0) this.nextSlot = 1;
    if (this.nextSlot > this.slots.capacity) this.renumber();
    const node: Node = { member, slot: this.nextSlot++, prev: this.tail, next: undefined };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.nodes.set(member.callSid, node);
    this.slots.add(node.slot, 1);
    return this.nodes.size;
  }

  /** Removes and returns the head. */
  shift(): QueueMember | undefined {
    const node = this.head;
    if (!node) return undefined;
    this.unlink(node);
    return node.member;
  }

  /** Removes `callSid` wherever it is; returns it with the position it had. */
  remove(callSid: string): { member: QueueMember; position: number } | undefined {
    const node = this.nodes.get(callSid);
    if (!node) return undefined;
    const position = this.slots.prefix(node.slot);
    this.unlink(node);
    return { member: node.member, position };
  }

  /** `callSid` with its 1-based position. */
  position(callSid: string): { member: QueueMember; position: number } | undefined {
    const node = this.nodes.get(callSid);
    return node && { member: node.member, position: this.slots.prefix(node.slot) };
  }

  /** Members head first. */
  *members(): IterableIterator<QueueMember> {
    for (let node = this.head; node; node = node.next) yield node.member;
  }

  private unlink(node: Node): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = undefined;
    this.nodes.delete(node.member.callSid);
    this.slots.add(node.slot, -1);
  }

  private renumber(): void {
    const live = this.nodes.size;
    let capacity = MIN_CAPACITY;
    while (capacity < 2 * (live + 1)) capacity *= 2;
    let slot = 0;
    for (let node = this.head; node; node = node.next) node.slot = ++slot;
    this.slots = new Fenwick(capacity, rangeFrom1(live));
    this.nextSlot = live + 1;
  }
}

function* rangeFrom1(n: number): IterableIterator<number> {
  for (let i = 1; i <= n; i++) yield i;
}
