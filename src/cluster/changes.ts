/**
 * Change notices between the nodes of a cluster over Redis pub/sub (channel `P:changes`): a node
 * publishes `{from, area, accountSid, key}` after a committed write of a shared record, and every
 * other node forgets or re-reads what it kept of that record. Pub/sub rather than a stream: a
 * notice is worth nothing once its listeners may have missed one, and then they forget
 * everything anyway; so a lost connection is answered by a reset once it is back, not by replay.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChangeListener, ChangeNotice, SharedChanges } from '../store/changes.js';
import { listenTo } from './channel.js';

/** The channel every node of a platform publishes its changes on. */
export const changesChannel = (prefix: string) => `${prefix}:changes`;

/** The client name of a node's subscribed connection (`CLIENT LIST` shows it). */
export const changesClientName = (prefix: string, nodeId: string) => `${prefix}:changes:${nodeId}`;

type Message = ({ flush?: undefined } & ChangeNotice) | { flush: string };

function decode(raw: string): (Message & { from: string }) | undefined {
  try {
    const value = JSON.parse(raw) as Record<string, unknown> | null;
    if (!value || typeof value !== 'object' || typeof value.from !== 'string') return undefined;
    if (typeof value.flush === 'string') return { from: value.from, flush: value.flush };
    const { area, accountSid, key } = value;
    if (typeof area !== 'string' || typeof accountSid !== 'string' || typeof key !== 'string')
      return undefined;
    return { from: value.from, area, accountSid, key };
  } catch {
    return undefined;
  }
}

/** {@link SharedChanges} over Redis pub/sub. */
export class RedisChanges implements SharedChanges {
  private readonly listeners = new Set<ChangeListener>();
  /** What listeners are still doing about notices heard (see {@link flush}). */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly flushes = new Map<string, () => void>();
  private readonly idStem = randomBytes(4).toString('hex');
  private seq = 0;
  private resets = 0;
  private readonly resetWaiters: Array<() => void> = [];

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    readonly nodeId: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  /**
   * Listens on a connection of its own and resolves once it does. `onError` hears notices that could not be sent and listeners
   * that failed.
   */
  static async start(
    redis: Redis,
    prefix: string,
    nodeId: string,
    onError: (err: unknown) => void = () => undefined,
  ): Promise<RedisChanges> {
    const channel = changesChannel(prefix);
    const listening = listenTo(redis, channel, (raw) => changes.hear(raw), changesClientName(prefix, nodeId));
    const subscriber = listening.connection;
    const changes = new RedisChanges(redis, subscriber, channel, nodeId, onError);
    await listening.subscribed;
    // Every 'ready' after the first is a reconnection: notices sent meanwhile are lost. ioredis
    // subscribes again right after emitting it; a PING sent after that subscription answers
    // once it is in place, and only then is everything forgotten (a notice sent in between
    // could otherwise be missed after the reset).
    subscriber.on('ready', () => {
      setImmediate(() => {
        subscriber.ping().then(
          () => changes.reset(),
          () => changes.reset(),
        );
      });
    });
    return changes;
  }

  /** How many times this node forgot everything after its connection came back. */
  get resetCount(): number {
    return this.resets;
  }

  /** Resolves after the next reset, once its listeners have finished (re-reading included). */
  nextReset(): Promise<void> {
    return new Promise((resolve) => this.resetWaiters.push(resolve));
  }

  async publish(notice: ChangeNotice): Promise<void> {
    const { area, accountSid, key } = notice;
    try {
      await this.redis.publish(this.channel, JSON.stringify({ from: this.nodeId, area, accountSid, key }));
    } catch (err) {
      this.onError(err);
    }
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves once this node has heard every notice published before the call, and its
   * listeners have finished acting on them: a marker it publishes to itself comes back after
   * them (Redis delivers a channel's messages in the order it received them).
   */
  async flush(): Promise<void> {
    const id = `${this.idStem}-${++this.seq}`;
    const heard = new Promise<void>((resolve) => this.flushes.set(id, resolve));
    await this.redis.publish(this.channel, JSON.stringify({ from: this.nodeId, flush: id }));
    await heard;
    await Promise.allSettled([...this.pending]);
  }

  /** Unsubscribes and closes the subscribed connection (the shared one belongs to the caller). */
  close(): void {
    this.listeners.clear();
    for (const resolve of this.flushes.values()) resolve();
    this.flushes.clear();
    this.subscriber.disconnect();
  }

  private hear(raw: string): void {
    const message = decode(raw);
    if (!message) return;
    if (message.flush !== undefined) {
      if (message.from !== this.nodeId) return;
      this.flushes.get(message.flush)?.();
      this.flushes.delete(message.flush);
      return;
    }
    // This node changed its own memory when it wrote.
    if (message.from === this.nodeId) return;
    const { area, accountSid, key } = message;
    for (const listener of [...this.listeners]) this.track(() => listener.changed({ area, accountSid, key }));
  }

  private reset(): void {
    this.resets += 1;
    const before = this.pending.size;
    for (const listener of [...this.listeners]) this.track(() => listener.reset());
    const done = [...this.pending].slice(before);
    const waiters = this.resetWaiters.splice(0);
    void Promise.allSettled(done).then(() => {
      for (const resolve of waiters) resolve();
    });
  }

  private track(work: () => void | Promise<void>): void {
    let done: void | Promise<void>;
    try {
      done = work();
    } catch (err) {
      this.onError(err);
      return;
    }
    if (!done) return;
    const tracked = done.catch(this.onError).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
