import type { Redis } from 'ioredis';
import { QueueError } from '../queue/errors.js';
import type { AtomicArrival, LocatedMember, QueueStore } from '../queue/store.js';
import type { QueueInfo, QueueMember, QueueSide, ServedStats } from '../queue/types.js';
import { otherSide } from '../queue/types.js';
import { ArrivalBatch } from './arrival-batch.js';
import {
  ARRIVE,
  DEQUEUE_HEAD,
  ENQUEUE,
  ENSURE_QUEUE,
  FIND_QUEUE,
  REMOVE,
  type Reply,
  runScript,
  SCRIPTS,
  SET_MAX_SIZE,
} from './redis-scripts.js';

/** Maps a script's error reply to the queue layer's errors. */
function translate(err: unknown, queueSid: string, callSid?: string): never {
  const message = err instanceof Error ? err.message : String(err);
  if (message.includes('UNKNOWN_QUEUE'))
    throw new QueueError('unknown-queue', `no queue with sid ${queueSid}`);
  if (message.includes('ALREADY_WAITING')) {
    throw new QueueError('already-waiting', `call ${callSid} is already waiting in ${queueSid}`);
  }
  if (message.includes('SID_TAKEN')) {
    throw new QueueError('invalid-sid', `queue sid ${queueSid} is already used by another queue`);
  }
  throw err;
}

/**
 * The {@link QueueStore} of a cluster: queues and their members in Redis, shared by every node.
 * Every operation is one Lua script (see `redis-scripts.ts` for why scripts and the key layout),
 * so it is atomic across processes and costs one round trip; member operations are O(log n)
 * (sorted sets). `arrive` does a whole arrival in one step, so two nodes can never match the
 * same waiting call and each side stays first come, first served.
 */
export class RedisQueueStore implements QueueStore {
  /**
   * `prefix` starts every key (several platforms can share a Redis, one prefix each); `nodeId`,
   * when given, is recorded on the members this node adds (`QueueMember.node`), so the node
   * that matches one knows where its call runs.
   */
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rcml',
    private readonly nodeId?: string,
    /**
     * Awaited (when it returns a promise) before each operation: a node whose lease lapsed
     * waits until it is renewed, one fenced off never goes on (see `lease.ts`).
     */
    private readonly gate?: () => Promise<void> | undefined,
  ) {
    // Loaded first on the connection, so every later EVALSHA on it finds its script: a call
    // sends its command at once, and a process's operations reach Redis in the order made.
    for (const lua of SCRIPTS) void redis.script('LOAD', lua).catch(() => undefined);
    this.arrivals = new ArrivalBatch((lua, keys, args) => this.script(lua, keys, args), `${prefix}:`);
  }

  /** Arrivals by name of the current tick, sent together (`arrival-batch.ts`). */
  private readonly arrivals: ArrivalBatch;

  /**
   * Queue sids by account and name, as arrivals' replies told them: a queue keeps its name and
   * is never removed, so the next arrival's script reads the queue by sid without looking the
   * name up (and looks it up when that queue is gone).
   */
  private readonly sidsByName = new Map<string, string>();

  /** Queues as last parsed, by their JSON: an arrival's reply carries its queue's JSON each time. */
  private readonly parsed = new Map<string, QueueInfo>();

  /** `raw` parsed, from {@link parsed} when it was seen before (the queue did not change since). */
  private queueOf(raw: string): QueueInfo {
    let queue = this.parsed.get(raw);
    if (queue === undefined) {
      if (this.parsed.size >= 256) this.parsed.clear();
      queue = Object.freeze(JSON.parse(raw) as QueueInfo);
      this.parsed.set(raw, queue);
    }
    return queue;
  }

  /**
   * A member as stored: its fields in a fixed order, this node's id as `node` when it has one.
   * Written out directly (an arrival makes one each): `JSON.stringify` of the object with the
   * node spread in costs several times as much.
   */
  private memberJson(member: QueueMember): string {
    const node = this.nodeId ?? member.node;
    const at = Number.isFinite(member.enqueuedAt) ? member.enqueuedAt : null;
    const head = `{"callSid":${JSON.stringify(member.callSid)},"side":${JSON.stringify(member.side)},"enqueuedAt":${at}`;
    return node === undefined ? `${head}}` : `${head},"node":${JSON.stringify(node)}}`;
  }

  private key(...parts: string[]): string {
    return `${this.prefix}:${parts.join(':')}`;
  }

  /**
   * The connection, for a command sent now: the arrivals still waiting for the end of the tick
   * go first, so that a process's operations reach Redis in the order they were made.
   */
  private connection(): Redis {
    this.arrivals.flush();
    return this.redis;
  }

  private script(lua: string, keys: string[], args: Array<string | number>): Promise<Reply> {
    const redis = this.connection();
    const wait = this.gate?.();
    if (wait) return wait.then(() => runScript(redis, lua, keys, args));
    return runScript(redis, lua, keys, args);
  }

  private lineKeys(queueSid: string, side: QueueSide) {
    return {
      queue: this.key('queue', queueSid),
      line: this.key('line', queueSid, side),
      seq: this.key('seq', queueSid),
      members: this.key('member', queueSid),
      served: this.key('served', queueSid),
    };
  }

  async ensureQueue(candidate: QueueInfo): Promise<QueueInfo> {
    const keys = [
      this.key('queue', candidate.sid),
      this.key('names', candidate.accountSid),
      this.key('order', candidate.accountSid),
    ];
    try {
      const raw = await this.script(ENSURE_QUEUE, keys, [
        JSON.stringify(candidate),
        candidate.name,
        candidate.sid,
        candidate.dateCreated,
        this.key('queue', ''),
      ]);
      return JSON.parse(raw as string) as QueueInfo;
    } catch (err) {
      translate(err, candidate.sid);
    }
  }

  async getQueue(queueSid: string): Promise<QueueInfo | undefined> {
    const raw = await this.connection().get(this.key('queue', queueSid));
    return raw === null ? undefined : (JSON.parse(raw) as QueueInfo);
  }

  // A queue's lookup by name on its own: the matcher's arrivals look it up inside `arriveByName`.
  async findQueue(accountSid: string, name: string): Promise<QueueInfo | undefined> {
    const raw = await this.script(FIND_QUEUE, [this.key('names', accountSid)], [name, this.key('queue', '')]);
    return raw === null ? undefined : (JSON.parse(raw as string) as QueueInfo);
  }

  async listQueues(accountSid: string): Promise<QueueInfo[]> {
    const sids = await this.connection().zrange(this.key('order', accountSid), '0', '-1');
    if (sids.length === 0) return [];
    const raws = await this.connection().mget(...sids.map((s) => this.key('queue', s)));
    return raws.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as QueueInfo);
  }

  async setMaxSize(queueSid: string, maxSize: number): Promise<QueueInfo | undefined> {
    const raw = await this.script(SET_MAX_SIZE, [this.key('queue', queueSid)], [maxSize]);
    return raw === null ? undefined : (JSON.parse(raw as string) as QueueInfo);
  }

  async enqueue(queueSid: string, member: QueueMember): Promise<number> {
    const k = this.lineKeys(queueSid, member.side);
    try {
      return (await this.script(
        ENQUEUE,
        [k.queue, k.line, k.seq, k.members],
        [member.callSid, this.memberJson(member)],
      )) as number;
    } catch (err) {
      translate(err, queueSid, member.callSid);
    }
  }

  async dequeueHead(queueSid: string, side: QueueSide): Promise<QueueMember | undefined> {
    const k = this.lineKeys(queueSid, side);
    try {
      const raw = await this.script(DEQUEUE_HEAD, [k.queue, k.line, k.members], []);
      return raw === null ? undefined : (JSON.parse(raw as string) as QueueMember);
    } catch (err) {
      translate(err, queueSid);
    }
  }

  async remove(queueSid: string, side: QueueSide, callSid: string): Promise<LocatedMember | undefined> {
    const k = this.lineKeys(queueSid, side);
    try {
      const reply = (await this.script(REMOVE, [k.queue, k.line, k.members], [callSid])) as
        | [string, number]
        | null;
      return reply === null ? undefined : { member: JSON.parse(reply[0]) as QueueMember, position: reply[1] };
    } catch (err) {
      translate(err, queueSid, callSid);
    }
  }

  async position(queueSid: string, side: QueueSide, callSid: string): Promise<LocatedMember | undefined> {
    const k = this.lineKeys(queueSid, side);
    const [[, exists], [, rank], [, raw]] = (await this.connection()
      .multi()
      .exists(k.queue)
      .zrank(k.line, callSid)
      .hget(k.members, callSid)
      .exec()) as [[unknown, number], [unknown, number | null], [unknown, string | null]];
    if (!exists) throw new QueueError('unknown-queue', `no queue with sid ${queueSid}`);
    if (rank === null || raw === null) return undefined;
    return { member: JSON.parse(raw) as QueueMember, position: rank + 1 };
  }

  async size(queueSid: string, side: QueueSide): Promise<number> {
    const k = this.lineKeys(queueSid, side);
    const [[, exists], [, size]] = (await this.connection().multi().exists(k.queue).zcard(k.line).exec()) as [
      [unknown, number],
      [unknown, number],
    ];
    if (!exists) throw new QueueError('unknown-queue', `no queue with sid ${queueSid}`);
    return size;
  }

  async list(queueSid: string, side: QueueSide): Promise<QueueMember[]> {
    const k = this.lineKeys(queueSid, side);
    const sids = await this.connection().zrange(k.line, '0', '-1');
    if (sids.length === 0) return [];
    const raws = await this.connection().hmget(k.members, ...sids);
    return raws.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as QueueMember);
  }

  async recordServed(queueSid: string, side: QueueSide, waitMs: number): Promise<void> {
    const served = this.key('served', queueSid);
    await this.connection()
      .multi()
      .hincrby(served, `${side}:count`, 1)
      .hincrby(served, `${side}:wait`, waitMs)
      .exec();
  }

  async servedStats(queueSid: string, side: QueueSide): Promise<ServedStats> {
    const [count, wait] = await this.connection().hmget(
      this.key('served', queueSid),
      `${side}:count`,
      `${side}:wait`,
    );
    return { count: Number(count ?? 0), totalWaitMs: Number(wait ?? 0) };
  }

  async arrive(queueSid: string, member: QueueMember): Promise<AtomicArrival> {
    const own = this.lineKeys(queueSid, member.side);
    const other = otherSide(member.side);
    const keys = [own.queue, own.line, this.key('line', queueSid, other), own.seq, own.members, own.served];
    try {
      return this.arrivalOf(
        (await this.script(ARRIVE, keys, [
          member.callSid,
          this.memberJson(member),
          member.enqueuedAt,
          other,
        ])) as Reply[],
      );
    } catch (err) {
      translate(err, queueSid, member.callSid);
    }
  }

  // The queue is looked up by name in the arrival's own script: an arrival is one round trip.
  async arriveByName(
    accountSid: string,
    name: string,
    member: QueueMember,
  ): Promise<AtomicArrival | undefined> {
    const names = this.key('names', accountSid);
    const named = `${names}:${name}`;
    const known = this.sidsByName.get(named);
    let reply: Reply[];
    try {
      reply = await this.arrivals.add(names, [
        name,
        known ?? '',
        member.callSid,
        this.memberJson(member),
        member.enqueuedAt,
        member.side,
      ]);
    } catch (err) {
      translate(err, `named ${name}`, member.callSid);
    }
    if (reply[0] === 'no-queue') return undefined;
    const arrival = this.arrivalOf(reply);
    const sid = 'queue' in arrival ? arrival.queue.sid : arrival.queueSid;
    if (sid !== undefined && sid !== known) {
      if (this.sidsByName.size >= 10_000) this.sidsByName.clear();
      this.sidsByName.set(named, sid);
    }
    return arrival;
  }

  /** An arrival script's reply as the queue layer's {@link AtomicArrival}. */
  private arrivalOf(reply: Reply[]): AtomicArrival {
    switch (reply[0]) {
      case 'already-waiting':
        return typeof reply[1] === 'string'
          ? { status: 'already-waiting', queueSid: reply[1] }
          : { status: 'already-waiting' };
      case 'matched':
        return {
          status: 'matched',
          partner: JSON.parse(reply[1] as string) as QueueMember,
          queue: this.queueOf(reply[2] as string),
          otherSize: reply[3] as number,
        };
      case 'queue-full':
        return { status: 'queue-full', queue: this.queueOf(reply[1] as string), size: reply[2] as number };
      default:
        return { status: 'waiting', queue: this.queueOf(reply[1] as string), position: reply[2] as number };
    }
  }
}
