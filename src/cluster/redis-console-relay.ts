/**
 * Carries the web console's live messages between the nodes of a cluster, so a console served
 * by one node shows the calls every node runs. Redis pub/sub on `<prefix>:console` (at most
 * once: the console is a view, the store keeps the records). A node sends an account's messages
 * only while a console of another node watches that account: watches are members of the sorted
 * set `<prefix>:console:watch` (`<account> <node>`, scored by their expiry, renewed while open),
 * so a cluster nobody watches pays nothing per call.
 */
import type { Redis } from 'ioredis';
import { listenTo } from './channel.js';

/** How long a watch lasts unless renewed (a node that dies stops renewing its own). */
const WATCH_TTL_MS = 30_000;
/** How often open watches are renewed and the other nodes' watches re-read. */
const REFRESH_MS = 5_000;

/** Where the messages go and the watches live. */
export const consoleChannel = (prefix: string) => `${prefix}:console`;
export const consoleWatchKey = (prefix: string) => `${prefix}:console:watch`;

/** What goes over the channel: an account's message, or a note that watches changed. */
type Wire = { f: string; a: string; m: unknown } | { f: string; w: 1 };

/**
 * The Redis side of the console relay (`ConsoleRelay` of src/api/console/feed.ts). Messages
 * are the console's, sent as JSON.
 */
export class RedisConsoleRelay {
  private readonly handlers = new Set<(accountSid: string, message: unknown) => void>();
  /** Accounts this node's consoles watch, with how many streams each. */
  private readonly mine = new Map<string, number>();
  /** Accounts a console of another node watches. */
  private watchedElsewhere = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly node: string,
  ) {
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), REFRESH_MS);
    this.timer.unref();
  }

  /** Listens to the channel (on a connection of its own) and reads the current watches. */
  static async start(redis: Redis, prefix: string, node: string): Promise<RedisConsoleRelay> {
    const listening = listenTo(redis, consoleChannel(prefix), (raw) => relay.received(raw));
    const relay = new RedisConsoleRelay(redis, listening.connection, prefix, node);
    // Messages may have been lost while the connection was down: re-read who watches.
    listening.connection.on('ready', () => void relay.refresh().catch(() => undefined));
    await listening.subscribed;
    await relay.refresh();
    return relay;
  }

  /** Sends a message of this node's calls, when a console elsewhere watches the account. */
  send(accountSid: string, message: unknown): void {
    if (this.closed || !this.watchedElsewhere.has(accountSid)) return;
    const wire: Wire = { f: this.node, a: accountSid, m: message };
    void this.redis.publish(consoleChannel(this.prefix), JSON.stringify(wire)).catch(() => undefined);
  }

  /** Hears the other nodes' messages. */
  receive(handler: (accountSid: string, message: unknown) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * A console of this node watches the account until the returned function is called. The
   * returned promise settles once the watch is recorded and the other nodes are told.
   */
  watch(accountSid: string): { ready: Promise<void>; stop(): void } {
    const count = this.mine.get(accountSid) ?? 0;
    this.mine.set(accountSid, count + 1);
    const ready = count === 0 ? this.announce([accountSid], []) : Promise.resolve();
    let stopped = false;
    return {
      ready,
      stop: () => {
        if (stopped) return;
        stopped = true;
        const left = (this.mine.get(accountSid) ?? 1) - 1;
        if (left > 0) this.mine.set(accountSid, left);
        else {
          this.mine.delete(accountSid);
          void this.announce([], [accountSid]).catch(() => undefined);
        }
      },
    };
  }

  /** Whether a console of another node watches the account (what `send` checks). */
  watchedByOthers(accountSid: string): boolean {
    return this.watchedElsewhere.has(accountSid);
  }

  private member(accountSid: string): string {
    return `${accountSid} ${this.node}`;
  }

  private async announce(added: string[], removed: string[]): Promise<void> {
    if (this.closed) return;
    const key = consoleWatchKey(this.prefix);
    const expiry = Date.now() + WATCH_TTL_MS;
    const batch = this.redis.multi();
    for (const account of added) batch.zadd(key, expiry, this.member(account));
    for (const account of removed) batch.zrem(key, this.member(account));
    batch.publish(consoleChannel(this.prefix), JSON.stringify({ f: this.node, w: 1 } satisfies Wire));
    await batch.exec();
  }

  /** Renews this node's watches, drops expired ones, and re-reads the other nodes'. */
  async refresh(): Promise<void> {
    if (this.closed) return;
    const key = consoleWatchKey(this.prefix);
    const now = Date.now();
    const batch = this.redis.multi().zremrangebyscore(key, '-inf', String(now));
    for (const account of this.mine.keys()) batch.zadd(key, now + WATCH_TTL_MS, this.member(account));
    batch.zrange(key, '0', '-1');
    const results = (await batch.exec()) ?? [];
    const members = (results[results.length - 1]?.[1] as string[] | undefined) ?? [];
    const elsewhere = new Set<string>();
    for (const m of members) {
      const [account, node] = m.split(' ');
      if (account && node && node !== this.node) elsewhere.add(account);
    }
    this.watchedElsewhere = elsewhere;
  }

  private received(raw: string): void {
    let wire: Partial<Wire & { a: string; m: unknown; w: 1 }>;
    try {
      wire = JSON.parse(raw);
    } catch {
      return;
    }
    if (!wire || typeof wire !== 'object' || wire.f === this.node) return;
    if (wire.w === 1) {
      void this.refresh().catch(() => undefined);
      return;
    }
    if (typeof wire.a !== 'string' || !wire.m || typeof wire.m !== 'object') return;
    if (!this.mine.has(wire.a)) return;
    for (const handler of [...this.handlers]) handler(wire.a, wire.m);
  }

  /** Withdraws this node's watches and leaves the channel. */
  async close(): Promise<void> {
    if (this.closed) return;
    const accounts = [...this.mine.keys()];
    this.mine.clear();
    if (accounts.length > 0) await this.announce([], accounts).catch(() => undefined);
    this.closed = true;
    clearInterval(this.timer);
    this.subscriber.disconnect();
  }
}
