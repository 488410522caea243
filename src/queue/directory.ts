import { QueueError } from './errors.js';
import { MemoryQueueStore } from './memory-store.js';
import { DEFAULT_MAX_QUEUE_SIZE, parseMaxQueueSize, parseQueueName } from './options.js';
import { randomQueueSid } from './sid.js';
import type { QueueStore } from './store.js';
import type { QueueInfo } from './types.js';

/** Construction options of a {@link QueueDirectory}, and so of a `QueueMatcher`. */
export interface QueueDirectoryOptions {
  /** The engine's clock (virtual or real), ms. Required: the matcher never reads the wall clock. */
  clock: () => number;
  /** Defaults to a fresh {@link MemoryQueueStore}. */
  store?: QueueStore;
  /** Sid of each new queue; defaults to {@link randomQueueSid}. Pass {@link seededQueueSids} in simulations. */
  newSid?: () => string;
  /** Size limit of queues created without one (1..5000, default 100). */
  defaultMaxSize?: number;
}

/**
 * The queues of a {@link QueueStore}, by account and name: each created on first use with a sid
 * and a size limit, looked up by sid, its limit changed. `QueueMatcher` matches calls on top.
 */
export class QueueDirectory {
  protected readonly clock: () => number;
  protected readonly store: QueueStore;
  private readonly newSid: () => string;
  private readonly defaultMaxSize: number;

  constructor(options: QueueDirectoryOptions) {
    this.clock = options.clock;
    this.store = options.store ?? new MemoryQueueStore();
    this.newSid = options.newSid ?? randomQueueSid;
    this.defaultMaxSize =
      options.defaultMaxSize === undefined
        ? DEFAULT_MAX_QUEUE_SIZE
        : parseMaxQueueSize(options.defaultMaxSize, 'options.defaultMaxSize');
  }

  /** The account's queue named `name`, created on first use (with `maxSize` if given, else the default). */
  async queue(accountSid: string, name: string, options: { maxSize?: number } = {}): Promise<QueueInfo> {
    const found = await this.store.findQueue(accountSid, parseQueueName(name, 'queue name'));
    if (found) return found;
    const maxSize =
      options.maxSize === undefined ? this.defaultMaxSize : parseMaxQueueSize(options.maxSize, 'maxSize');
    return this.store.ensureQueue({
      sid: this.newSid(),
      accountSid,
      name,
      maxSize,
      dateCreated: this.clock(),
    });
  }

  getQueue(queueSid: string): Promise<QueueInfo | undefined> {
    return this.store.getQueue(queueSid);
  }

  listQueues(accountSid: string): Promise<QueueInfo[]> {
    return this.store.listQueues(accountSid);
  }

  /** Changes a queue's size limit (1..5000). Members already waiting stay even when over it. */
  async setMaxSize(queueSid: string, maxSize: number): Promise<QueueInfo> {
    const updated = await this.store.setMaxSize(queueSid, parseMaxQueueSize(maxSize, 'maxSize'));
    if (!updated) throw new QueueError('unknown-queue', `no queue with sid ${queueSid}`);
    return updated;
  }

  /** The queue with this sid; `unknown-queue` when there is none. */
  protected async requireQueue(queueSid: string): Promise<QueueInfo> {
    const queue = await this.store.getQueue(queueSid);
    if (!queue) throw new QueueError('unknown-queue', `no queue with sid ${queueSid}`);
    return queue;
  }
}
