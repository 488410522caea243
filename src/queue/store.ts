import type { QueueInfo, QueueMember, QueueSide, ServedStats } from './types.js';

/** A waiting member with its current 1-based position on its side. */
export interface LocatedMember {
  member: QueueMember;
  position: number;
}

/** What an atomic {@link QueueStore.arrive} did. */
export type AtomicArrival =
  /** The call already waits on the other side: nothing changed. */
  | { status: 'already-waiting'; queueSid?: string }
  /** The other side's head was removed for it (and its wait recorded as served). */
  | { status: 'matched'; queue: QueueInfo; partner: QueueMember; otherSize: number }
  /** Its side is at the queue's size limit: nothing changed. */
  | { status: 'queue-full'; queue: QueueInfo; size: number }
  /** Appended at the tail of its side. */
  | { status: 'waiting'; queue: QueueInfo; position: number };

/**
 * Where queues and their waiting members live. Narrow and asynchronous so that a shared,
 * multi-process store can implement it; {@link MemoryQueueStore} is the default.
 *
 * Each queue has two FIFO lines, one per {@link QueueSide}. Implementations keep every
 * operation O(1) or O(log n) in the line's length, except `list` and `listQueues`.
 * The store does not match anything: {@link QueueMatcher} does, and serialises the operations
 * on one queue; a shared store must serialise them across processes too (e.g. a per-queue lock).
 */
export interface QueueStore {
  /** The queue named `candidate.name` in `candidate.accountSid`, created from `candidate` if absent (atomic). */
  ensureQueue(candidate: QueueInfo): Promise<QueueInfo>;
  getQueue(queueSid: string): Promise<QueueInfo | undefined>;
  findQueue(accountSid: string, name: string): Promise<QueueInfo | undefined>;
  /** The account's queues in creation order. */
  listQueues(accountSid: string): Promise<QueueInfo[]>;
  /** Changes a queue's size limit; members already waiting stay. */
  setMaxSize(queueSid: string, maxSize: number): Promise<QueueInfo | undefined>;

  /** Appends `member` at the tail of its side; returns its 1-based position. Throws when it is already there. */
  enqueue(queueSid: string, member: QueueMember): Promise<number>;
  /** Removes and returns the head of `side`, if any. */
  dequeueHead(queueSid: string, side: QueueSide): Promise<QueueMember | undefined>;
  /** Removes `callSid` from `side` wherever it waits; returns it with the position it had. */
  remove(queueSid: string, side: QueueSide, callSid: string): Promise<LocatedMember | undefined>;
  /** `callSid` with its 1-based position on `side`, or undefined when it is not waiting there. */
  position(queueSid: string, side: QueueSide, callSid: string): Promise<LocatedMember | undefined>;
  size(queueSid: string, side: QueueSide): Promise<number>;
  /** Members of `side`, head first. */
  list(queueSid: string, side: QueueSide): Promise<QueueMember[]>;

  /** Adds one served member's wait to the side's totals. */
  recordServed(queueSid: string, side: QueueSide, waitMs: number): Promise<void>;
  servedStats(queueSid: string, side: QueueSide): Promise<ServedStats>;

  /**
   * Optional: the whole arrival of `member` as one atomic step, for stores shared by several
   * processes (where the matcher's own per-queue ordering does not reach): refuse it when it
   * waits on the other side; else take the other side's head (recording its wait as served at
   * `member.enqueuedAt`); else refuse it at the queue's current size limit; else append it.
   * Throws `already-waiting` when it already waits on its own side.
   */
  arrive?(queueSid: string, member: QueueMember): Promise<AtomicArrival>;

  /**
   * Optional, with `arrive`: the same arrival at the account's queue named `name`, looked up in
   * the same step (one round trip for a shared store); undefined, with nothing changed, when the
   * account has no queue of that name (the matcher then creates it and arrives by sid).
   */
  arriveByName?(accountSid: string, name: string, member: QueueMember): Promise<AtomicArrival | undefined>;
}
