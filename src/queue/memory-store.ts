import { QueueError } from './errors.js';
import { FifoLine } from './fifo-line.js';
import type { LocatedMember, QueueStore } from './store.js';
import type { QueueInfo, QueueMember, QueueSide, ServedStats } from './types.js';

interface Entry {
  info: QueueInfo;
  lines: Record<QueueSide, FifoLine>;
  served: Record<QueueSide, ServedStats>;
}

/** The in-memory {@link QueueStore}: one process, every member operation O(1) or O(log n). */
export class MemoryQueueStore implements QueueStore {
  private readonly bySid = new Map<string, Entry>();
  /** accountSid -> name -> sid, in creation order. */
  private readonly byAccount = new Map<string, Map<string, string>>();

  async ensureQueue(candidate: QueueInfo): Promise<QueueInfo> {
    let names = this.byAccount.get(candidate.accountSid);
    const existing = names?.get(candidate.name);
    if (existing !== undefined) return { ...this.entry(existing).info };
    if (this.bySid.has(candidate.sid)) {
      throw new QueueError('invalid-sid', `queue sid ${candidate.sid} is already used by another queue`);
    }
    if (!names) {
      names = new Map();
      this.byAccount.set(candidate.accountSid, names);
    }
    names.set(candidate.name, candidate.sid);
    this.bySid.set(candidate.sid, {
      info: { ...candidate },
      lines: { enqueued: new FifoLine(), dialer: new FifoLine() },
      served: { enqueued: { count: 0, totalWaitMs: 0 }, dialer: { count: 0, totalWaitMs: 0 } },
    });
    return { ...candidate };
  }

  async getQueue(queueSid: string): Promise<QueueInfo | undefined> {
    const entry = this.bySid.get(queueSid);
    return entry && { ...entry.info };
  }

  async findQueue(accountSid: string, name: string): Promise<QueueInfo | undefined> {
    const sid = this.byAccount.get(accountSid)?.get(name);
    return sid === undefined ? undefined : { ...this.entry(sid).info };
  }

  async listQueues(accountSid: string): Promise<QueueInfo[]> {
    const names = this.byAccount.get(accountSid);
    return names ? [...names.values()].map((sid) => ({ ...this.entry(sid).info })) : [];
  }

  async setMaxSize(queueSid: string, maxSize: number): Promise<QueueInfo | undefined> {
    const entry = this.bySid.get(queueSid);
    if (!entry) return undefined;
    entry.info.maxSize = maxSize;
    return { ...entry.info };
  }

  async enqueue(queueSid: string, member: QueueMember): Promise<number> {
    // The line copies the fields: the caller's object is not kept.
    return this.entry(queueSid).lines[member.side].push(member);
  }

  async dequeueHead(queueSid: string, side: QueueSide): Promise<QueueMember | undefined> {
    return this.entry(queueSid).lines[side].shift();
  }

  async remove(queueSid: string, side: QueueSide, callSid: string): Promise<LocatedMember | undefined> {
    return this.entry(queueSid).lines[side].remove(callSid);
  }

  async position(queueSid: string, side: QueueSide, callSid: string): Promise<LocatedMember | undefined> {
    return this.entry(queueSid).lines[side].position(callSid);
  }

  async size(queueSid: string, side: QueueSide): Promise<number> {
    return this.entry(queueSid).lines[side].size;
  }

  async list(queueSid: string, side: QueueSide): Promise<QueueMember[]> {
    return [...this.entry(queueSid).lines[side].members()].map((m) => ({ ...m }));
  }

  async recordServed(queueSid: string, side: QueueSide, waitMs: number): Promise<void> {
    const stats = this.entry(queueSid).served[side];
    stats.count += 1;
    stats.totalWaitMs += waitMs;
  }

  async servedStats(queueSid: string, side: QueueSide): Promise<ServedStats> {
    return { ...this.entry(queueSid).served[side] };
  }

  private entry(queueSid: string): Entry {
    const entry = this.bySid.get(queueSid);
    if (!entry) throw new QueueError('unknown-queue', `no queue with sid ${queueSid}`);
    return entry;
  }
}
