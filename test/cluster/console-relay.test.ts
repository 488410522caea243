/**
 * The consoles of a cluster's nodes: a console served by one node sees, live, the calls another
 * node runs, through Redis; nothing is sent for accounts no other node watches.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleMessage, createConsoleFeed } from '../../src/api/console/feed.js';
import { consoleChannel, RedisConsoleRelay } from '../../src/cluster/redis-console-relay.js';
import { createEngine } from '../../src/engine/index.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const ACCOUNT = `AC${'1'.repeat(32)}`;
const OTHER = `AC${'2'.repeat(32)}`;
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function relays(n: number): Promise<{ prefix: string; redis: Redis; nodes: RedisConsoleRelay[] }> {
  const prefix = `${REDIS_PREFIX}${uniqueName('c')}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  closers.push(() => redis.disconnect());
  const nodes: RedisConsoleRelay[] = [];
  for (let i = 0; i < n; i++) {
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const relay = await RedisConsoleRelay.start(connection, prefix, `node${i + 1}`);
    closers.push(async () => {
      await relay.close();
      connection.disconnect();
    });
    nodes.push(relay);
  }
  return { prefix, redis, nodes };
}

/** Waits (bounded) until `check` holds, re-checking after each round trip to Redis. */
async function until(redis: Redis, check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await redis.ping();
  }
}

describe.skipIf(!REDIS_URL)('console relay across nodes', () => {
  it("a console on node 2 hears node 1's calls as node 1's own console does, and keeps their timeline", async () => {
    const { redis, nodes } = await relays(2);
    const [one, two] = nodes;
    const feedOne = createConsoleFeed({}, one);
    const feedTwo = createConsoleFeed({}, two);
    closers.push(
      () => feedOne.close(),
      () => feedTwo.close(),
    );

    const local: ConsoleMessage[] = [];
    const remote: ConsoleMessage[] = [];
    feedOne.subscribe(ACCOUNT, { message: (m) => local.push(m), end: () => {} });
    feedTwo.subscribe(ACCOUNT, { message: (m) => remote.push(m), end: () => {} });
    await until(redis, () => one.watchedByOthers(ACCOUNT), 'node 1 knows node 2 watches');
    expect(one.watchedByOthers(OTHER)).toBe(false);

    const engine = createEngine({
      seed: 7,
      accountSid: ACCOUNT,
      sink: feedOne.wrapSink({}),
      onEvent: feedOne.onEvent,
    });
    closers.push(() => engine.close());
    engine.registerHandler('http://app/ivr', () => ({
      status: 200,
      contentType: 'text/xml',
      body: '<Response><Say>Hello</Say><Pause length="2"/><Hangup/></Response>',
    }));
    engine.setNumber('+1000', { voiceUrl: 'http://app/ivr' });
    const call = engine.incomingCall('+1555', '+1000');
    await engine.runUntilIdle();
    expect(local.some((m) => m.type === 'call' && m.call.status === 'completed')).toBe(true);

    // Pub/sub keeps the order of one publisher: node 2 hears exactly node 1's sequence.
    await until(redis, () => remote.length === local.length, 'node 2 heard every message');
    expect(remote).toEqual(JSON.parse(JSON.stringify(local)));
    expect(feedTwo.recentCalls(ACCOUNT).map((c) => c.sid)).toEqual([call.sid]);
    expect(feedTwo.timeline(ACCOUNT, call.sid)?.events).toEqual(
      JSON.parse(JSON.stringify(feedOne.timeline(ACCOUNT, call.sid)?.events)),
    );
    expect(feedTwo.timeline(OTHER, call.sid)).toBeUndefined();
  });

  it('sends nothing for accounts no other node watches, drops malformed messages, and stops when the watch ends', async () => {
    const { prefix, redis, nodes } = await relays(2);
    const [one, two] = nodes;
    const feedTwo = createConsoleFeed({}, two);
    closers.push(() => feedTwo.close());
    const heard: ConsoleMessage[] = [];
    const off = feedTwo.subscribe(ACCOUNT, { message: (m) => heard.push(m), end: () => {} });
    await until(redis, () => one.watchedByOthers(ACCOUNT), 'node 1 knows node 2 watches');

    const sent: string[] = [];
    const spy = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    closers.push(() => spy.disconnect());
    spy.on('message', (_channel: string, raw: string) => sent.push(raw));
    await spy.subscribe(consoleChannel(prefix));

    one.send(OTHER, {
      type: 'notification',
      notification: { sid: 'NO1', code: '1', log: 0, message: 'x', dateCreated: 0 },
    });
    await redis.publish(consoleChannel(prefix), 'not json');
    await redis.publish(
      consoleChannel(prefix),
      JSON.stringify({ f: 'node9', a: ACCOUNT, m: { type: 'call' } }),
    );
    await redis.publish(
      consoleChannel(prefix),
      JSON.stringify({ f: 'node9', a: OTHER, m: { type: 'event', event: { type: 'verb' } } }),
    );
    const good = {
      type: 'notification',
      notification: { sid: 'NO2', code: '2', log: 1, message: 'y', dateCreated: 1 },
    };
    one.send(ACCOUNT, good as ConsoleMessage);
    await until(redis, () => heard.length === 1, 'the well-formed message arrived');
    expect(heard).toEqual([good]);
    expect(sent.some((raw) => raw.includes('NO1'))).toBe(false);

    off();
    await until(redis, () => !one.watchedByOthers(ACCOUNT), 'node 1 knows nobody watches');
    one.send(ACCOUNT, { ...good, notification: { ...good.notification, sid: 'NO3' } } as ConsoleMessage);
    await redis.ping();
    await spy.ping();
    expect(sent.some((raw) => raw.includes('NO3'))).toBe(false);
  });
});
