import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type {
  ConferencePeers,
  RoomClaim,
  RoomSignal,
  RoomSignalHandler,
} from '../engine/conference-peers.js';
import type {
  LegTerms,
  PairEndedBy,
  QueuePeers,
  RemoteLeg,
  RemoteLegEvents,
  RemoteOffer,
} from '../engine/queues/peers.js';
import type { QueueSide } from '../queue/types.js';
import { decodeSignal, type PeerSignal } from './peer-signals.js';
import { claimRoom, releaseRoom } from './room-claims.js';

/** Signals kept per node stream (approximate trim): far more than a node has in flight. */
const STREAM_MAX_LEN = 10_000;
/** A stream nobody writes to for this long (its node is gone) disappears. */
const STREAM_TTL_MS = 24 * 3600 * 1000;

type Accept = (offer: RemoteOffer, leg: RemoteLeg) => Promise<LegTerms | undefined>;

/** A call running on another node, as one side of a local pairing. */
class PeerLeg implements RemoteLeg {
  readonly partnerDoc: LegTerms['partnerDoc'];
  readonly timeLimitMs: LegTerms['timeLimitMs'];
  private events: RemoteLegEvents | undefined;
  private readonly early: Array<(events: RemoteLegEvents) => void> = [];
  /** Settles once the other node knows of this match (its `accept` sent): news waits for it. */
  opened: Promise<void> = Promise.resolve();

  constructor(
    private readonly peers: RedisQueuePeers,
    readonly id: string,
    readonly node: string,
    readonly callSid: string,
    readonly side: QueueSide,
    terms: LegTerms,
  ) {
    this.partnerDoc = terms.partnerDoc;
    this.timeLimitMs = terms.timeLimitMs;
  }

  bind(events: RemoteLegEvents): void {
    this.events = events;
    for (const news of this.early.splice(0)) news(events);
  }

  async ready(): Promise<void> {
    await this.opened;
    await this.peers.send(this.node, { t: 'ready', id: this.id, from: this.peers.nodeId });
  }

  async leave(endedBy: PairEndedBy): Promise<void> {
    this.peers.forget(this);
    await this.opened;
    await this.peers.send(this.node, { t: 'left', id: this.id, from: this.peers.nodeId, endedBy });
  }

  /** News from the other node, held until the pairing binds. */
  hear(news: (events: RemoteLegEvents) => void): void {
    if (this.events) news(this.events);
    else this.early.push(news);
  }
}

/**
 * Cross-node matches and conference rooms over Redis: each node reads its own stream
 * `P:signals:<node>` and writes to the others'. Streams rather than pub/sub: a node reads from the last entry it saw, so a signal
 * sent while its connection is being re-established is read once it is back, where pub/sub
 * would drop it; and a lost `left` would keep a call connected to nobody. Signals are read in
 * the order they were written, once each. A node that dies is not waited for: see
 * {@link endBridgesWith}.
 */
export class RedisQueuePeers implements QueuePeers, ConferencePeers {
  private readonly legs = new Map<string, PeerLeg>();
  private readonly offers = new Map<string, { offer: RemoteOffer; resolve(leg?: RemoteLeg): void }>();
  private readonly flushes = new Map<string, () => void>();
  /** The room names this node holds: `<AccountSid> <name>` -> room sid. */
  private readonly claims = new Map<string, string>();
  private accept: Accept | undefined;
  private rooms: RoomSignalHandler | undefined;
  private readonly idStem = `${randomBytes(4).toString('hex')}`;
  private seq = 0;
  private closed = false;
  private reading: Promise<void> = Promise.resolve();

  private constructor(
    private readonly redis: Redis,
    private readonly reader: Redis,
    private readonly prefix: string,
    readonly nodeId: string,
    /** The node's heartbeat TTL when it beats: its new room claims wait out a reclaim window. */
    private readonly ttlMs?: number,
  ) {}

  /**
   * Starts reading this node's signals. `redis` sends; a second connection of its own reads
   * (a blocking read holds its connection).
   */
  static async start(redis: Redis, prefix: string, nodeId: string, ttlMs?: number): Promise<RedisQueuePeers> {
    const reader = redis.duplicate();
    reader.on('error', () => undefined);
    const peers = new RedisQueuePeers(redis, reader, prefix, nodeId, ttlMs);
    // Signals left from an earlier run of this node are for calls that no longer exist.
    const last = (await redis.xrevrange(peers.stream(nodeId), '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-0';
    peers.reading = peers.read(last);
    return peers;
  }

  serve(accept: Accept): void {
    this.accept = accept;
  }

  offer(offer: RemoteOffer): Promise<RemoteLeg | undefined> {
    const id = `${this.nodeId}.${this.idStem}.${++this.seq}`;
    return new Promise((resolve) => {
      this.offers.set(id, { offer, resolve });
      void this.send(offer.waiting.node, { t: 'offer', id, from: this.nodeId, offer }, () => {
        this.offers.delete(id);
        resolve(undefined);
      });
    });
  }

  /**
   * `node` is dead: every match with one of its calls ends as if that call had hung up, and
   * offers waiting for its answer are taken back (the arriving call arrives again).
   */
  endBridgesWith(node: string): void {
    for (const [id, pending] of this.offers) {
      if (pending.offer.waiting.node !== node) continue;
      this.offers.delete(id);
      pending.resolve(undefined);
    }
    for (const leg of [...this.legs.values()]) {
      if (leg.node !== node) continue;
      this.forget(leg);
      leg.hear((events) => events.left(leg.side));
    }
  }

  async claimRoom(accountSid: string, name: string, sid: string, stale?: RoomClaim): Promise<RoomClaim> {
    const held = await claimRoom(
      this.redis,
      this.prefix,
      accountSid,
      name,
      { node: this.nodeId, sid },
      stale,
      this.ttlMs === undefined ? { kind: 'free' } : { kind: 'new', ttlMs: this.ttlMs },
    );
    if (held.node === this.nodeId && held.sid === sid) this.claims.set(`${accountSid} ${name}`, sid);
    return held;
  }

  releaseRoom(accountSid: string, name: string, sid: string): Promise<void> {
    const key = `${accountSid} ${name}`;
    if (this.claims.get(key) === sid) this.claims.delete(key);
    return releaseRoom(this.redis, this.prefix, accountSid, name, { node: this.nodeId, sid }).catch(
      () => undefined,
    );
  }

  /**
   * Redis lost its data (restarted empty): the names of the rooms this node runs are claimed
   * again, inside the reclaim window, before any new claim may be made. Returns the names
   * another node holds nonetheless (a node started in the beat of the loss, or a node reaching
   * Redis again only after the window: two rooms then share the name until one ends).
   */
  async reclaimRooms(): Promise<string[]> {
    const lost: string[] = [];
    for (const [key, sid] of [...this.claims]) {
      const space = key.indexOf(' ');
      const [accountSid, name] = [key.slice(0, space), key.slice(space + 1)];
      const held = await claimRoom(
        this.redis,
        this.prefix,
        accountSid,
        name,
        { node: this.nodeId, sid },
        undefined,
        { kind: 'again' },
      );
      if (held.node !== this.nodeId || held.sid !== sid) lost.push(name);
    }
    return lost;
  }

  sendRoom(node: string, room: RoomSignal): void {
    void this.send(node, { t: 'room', id: '', from: this.nodeId, room });
  }

  serveRooms(handler: RoomSignalHandler): void {
    this.rooms = handler;
  }

  /** `node` is dead: its calls leave the rooms of this node, and the rooms it ran end here. */
  endRoomsWith(node: string): void {
    this.rooms?.nodeDead(node);
  }

  /** Resolves once every signal sent to this node before the call has been handled (at once when closed). */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const id = `${this.idStem}.flush.${++this.seq}`;
    return new Promise((resolve) => {
      this.flushes.set(id, resolve);
      void this.send(this.nodeId, { t: 'flush', id, from: this.nodeId }, () => {
        this.flushes.delete(id);
        resolve();
      });
    });
  }

  /** Stops reading; matches in progress are left to the node death rule of the others. */
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.flushes.values()) resolve();
    this.flushes.clear();
    this.reader.disconnect();
    await this.reading;
  }

  /** @internal The pairing of `leg` is over here: later news about it is dropped. */
  forget(leg: PeerLeg): void {
    if (this.legs.get(leg.id) === leg) this.legs.delete(leg.id);
  }

  /** @internal Writes `signal` to `node`'s stream; resolves either way (`failed` on error). */
  async send(node: string, signal: PeerSignal, failed?: () => void): Promise<void> {
    try {
      await this.redis
        .multi()
        .xadd(this.stream(node), 'MAXLEN', '~', STREAM_MAX_LEN, '*', 'm', JSON.stringify(signal))
        .pexpire(this.stream(node), STREAM_TTL_MS)
        .exec();
    } catch {
      failed?.();
    }
  }

  private stream(node: string): string {
    return `${this.prefix}:signals:${node}`;
  }

  private async read(from: string): Promise<void> {
    let last = from;
    while (!this.closed) {
      let reply: Array<[string, Array<[string, string[]]>]> | null;
      try {
        reply = (await this.reader.xread(
          'BLOCK',
          0,
          'STREAMS',
          this.stream(this.nodeId),
          last,
        )) as typeof reply;
      } catch {
        continue; // reconnecting (or closed): read again from the last entry seen
      }
      for (const [, entries] of reply ?? []) {
        for (const [entryId, fields] of entries) {
          last = entryId;
          const signal = decodeSignal(fields[1] ?? '');
          if (signal) this.handle(signal);
        }
      }
    }
  }

  private handle(signal: PeerSignal): void {
    switch (signal.t) {
      case 'offer':
        void this.answer(signal.id, signal.from, signal.offer);
        return;
      case 'accept':
      case 'refuse': {
        const pending = this.offers.get(signal.id);
        if (!pending) return;
        this.offers.delete(signal.id);
        if (signal.t === 'refuse') {
          pending.resolve(undefined);
          return;
        }
        const { waiting } = pending.offer;
        const leg = new PeerLeg(this, signal.id, signal.from, waiting.callSid, waiting.side, signal.terms);
        this.legs.set(signal.id, leg);
        pending.resolve(leg);
        return;
      }
      case 'ready':
        this.legs.get(signal.id)?.hear((events) => events.ready());
        return;
      case 'left': {
        const leg = this.legs.get(signal.id);
        if (!leg) return;
        this.forget(leg);
        leg.hear((events) => events.left(signal.endedBy));
        return;
      }
      case 'flush':
        this.flushes.get(signal.id)?.();
        this.flushes.delete(signal.id);
        return;
      case 'room':
        this.rooms?.signal(signal.from, signal.room);
    }
  }

  /** Another node matched one of this node's waiting calls: take it or refuse it. */
  private async answer(id: string, from: string, offer: RemoteOffer): Promise<void> {
    const { arriving } = offer;
    const leg = new PeerLeg(this, id, from, arriving.callSid, arriving.side, arriving);
    this.legs.set(id, leg);
    let open = () => {};
    leg.opened = new Promise((resolve) => {
      open = resolve;
    });
    let terms: LegTerms | undefined;
    try {
      terms = await this.accept?.(offer, leg);
    } catch {
      terms = undefined;
    }
    if (!terms) this.forget(leg);
    await this.send(
      from,
      terms ? { t: 'accept', id, from: this.nodeId, terms } : { t: 'refuse', id, from: this.nodeId },
    );
    open();
  }
}
