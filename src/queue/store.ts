import type { QueueInfo, QueueMember, QueueSide, ServedStats } from './types.js';

/** A waiting member with its current 1-based position on its side. */
export interface LocatedMember {
  member: QueueMember;
  position: number;
}

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
}
