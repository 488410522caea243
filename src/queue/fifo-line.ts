import { QueueError } from './errors.js';
import { Fenwick } from './fenwick.js';
import { SidIndex } from './sid-index.js';
import type { QueueMember, QueueSide } from './types.js';

const MIN_CAPACITY = 16;

/**
 * One side of one queue, built so that the operations of a match (append at the tail, take the
 * head) cost the same with ten or a hundred thousand waiting.
 *
 * Members sit in ring buffers (call sid, side, enqueue time), in arrival order, under
 * ever-growing sequence numbers (ring index = sequence & mask), with a map from call sid to
 * sequence number. Appending and taking the head touch one ring cell and one map entry: no
 * per-member node or object is kept (a long line would otherwise hold a hundred thousand objects
 * for the garbage collector to promote and trace), and no tree is updated.
 * Removing a member elsewhere leaves a hole (an empty cell) that the head skips later, and marks
 * it in a Fenwick tree over ring cells, so a position is `seq - head + 1 - holes before it`:
 * O(1) while there are no holes, O(log n) otherwise. The ring doubles when full, or is compacted
 * in place when at least half of it is holes, so memory stays within 4x the longest line and
 * each of those O(n) steps is paid for by the appends or removals before it.
 */
export class FifoLine {
  /** Call sid per cell; undefined for a free cell or a hole. */
  private sids: (string | undefined)[] = new Array(MIN_CAPACITY);
  private sides: QueueSide[] = new Array(MIN_CAPACITY);
  private enqueuedAt = new Float64Array(MIN_CAPACITY);
  private mask = MIN_CAPACITY - 1;
  /** Sequence number of the first cell in use (a member or a hole). */
  private headSeq = 0;
  /** Sequence number the next member gets. */
  private tailSeq = 0;
  private readonly seqOf = new SidIndex();
  /** Holes between headSeq and tailSeq, by ring cell; created at the first hole. */
  private holes: Fenwick | undefined;
  private holeCount = 0;

  get size(): number {
    return this.seqOf.size;
  }

  has(callSid: string): boolean {
    return this.seqOf.has(callSid);
  }

  /** Appends at the tail; returns the 1-based position (the new size). */
  push(member: QueueMember): number {
    if (this.seqOf.has(member.callSid)) {
      throw new QueueError(
        'already-waiting',
        `call ${member.callSid} is already waiting on the ${member.side} side`,
      );
    }
    if (this.tailSeq - this.headSeq > this.mask) this.makeRoom();
    const seq = this.tailSeq++;
    const cell = seq & this.mask;
    this.sids[cell] = member.callSid;
    this.sides[cell] = member.side;
    this.enqueuedAt[cell] = member.enqueuedAt;
    this.seqOf.set(member.callSid, seq);
    return this.seqOf.size;
  }

  /** Removes and returns the head. */
  shift(): QueueMember | undefined {
    if (this.seqOf.size === 0) return undefined;
    while (this.sids[this.headSeq & this.mask] === undefined) this.dropHeadHole();
    const cell = this.headSeq & this.mask;
    const member = this.memberAt(cell);
    this.sids[cell] = undefined;
    this.headSeq++;
    this.seqOf.delete(member.callSid);
    return member;
  }

  /** Removes `callSid` wherever it is; returns it with the position it had. */
  remove(callSid: string): { member: QueueMember; position: number } | undefined {
    const seq = this.seqOf.get(callSid);
    if (seq === undefined) return undefined;
    const position = this.positionOf(seq);
    if (position === 1) {
      const member = this.shift() as QueueMember;
      return { member, position };
    }
    const cell = seq & this.mask;
    const member = this.memberAt(cell);
    this.sids[cell] = undefined;
    this.seqOf.delete(callSid);
    this.holes ??= new Fenwick(this.mask + 1);
    this.holes.add(cell + 1, 1);
    this.holeCount++;
    return { member, position };
  }

  /** `callSid` with its 1-based position. */
  position(callSid: string): { member: QueueMember; position: number } | undefined {
    const seq = this.seqOf.get(callSid);
    if (seq === undefined) return undefined;
    return { member: this.memberAt(seq & this.mask), position: this.positionOf(seq) };
  }

  /** Members head first. */
  *members(): IterableIterator<QueueMember> {
    for (let seq = this.headSeq; seq < this.tailSeq; seq++) {
      const cell = seq & this.mask;
      if (this.sids[cell] !== undefined) yield this.memberAt(cell);
    }
  }

  /** A fresh member object for the occupied `cell`. */
  private memberAt(cell: number): QueueMember {
    return { callSid: this.sids[cell] as string, side: this.sides[cell], enqueuedAt: this.enqueuedAt[cell] };
  }

  private positionOf(seq: number): number {
    return seq - this.headSeq + 1 - (this.holeCount === 0 ? 0 : this.holesBetween(this.headSeq, seq));
  }

  /** Holes in the cells of sequence numbers head..seq; the range may wrap round the ring. */
  private holesBetween(head: number, seq: number): number {
    const holes = this.holes as Fenwick;
    const from = head & this.mask;
    const to = seq & this.mask;
    if (from <= to) return holes.prefix(to + 1) - holes.prefix(from);
    return this.holeCount - holes.prefix(from) + holes.prefix(to + 1);
  }

  private dropHeadHole(): void {
    (this.holes as Fenwick).add((this.headSeq & this.mask) + 1, -1);
    this.holeCount--;
    this.headSeq++;
  }

  /** The ring is full: compact it when half of it is holes, else double it. */
  private makeRoom(): void {
    const capacity = this.mask + 1;
    const newCapacity = this.holeCount * 2 >= capacity ? capacity : capacity * 2;
    const sids: (string | undefined)[] = new Array(newCapacity);
    const sides: QueueSide[] = new Array(newCapacity);
    const enqueuedAt = new Float64Array(newCapacity);
    let seq = 0;
    for (let from = this.headSeq; from < this.tailSeq; from++) {
      const cell = from & this.mask;
      const callSid = this.sids[cell];
      if (callSid === undefined) continue;
      sids[seq] = callSid;
      sides[seq] = this.sides[cell];
      enqueuedAt[seq] = this.enqueuedAt[cell];
      this.seqOf.set(callSid, seq++);
    }
    this.sids = sids;
    this.sides = sides;
    this.enqueuedAt = enqueuedAt;
    this.mask = newCapacity - 1;
    this.headSeq = 0;
    this.tailSeq = seq;
    this.holes = undefined;
    this.holeCount = 0;
  }
}
