/**
 * Queue matching cost per match with 1,000 vs 100,000 parties waiting. Each match is a dialer
 * arriving through `QueueMatcher.arrive` and meeting the head of the enqueued side; the store then
 * gets one new member at the tail so the line keeps its length. Lines are filled through the
 * store directly because the matcher caps a side at 5,000. Floor: a plain Map delete+set per
 * match with the same number of entries, measured in the same run. Sizes alternate round by
 * round and the best round counts, so a busy machine skews both sides alike.
 */
import { MemoryQueueStore, QueueMatcher, seededQueueSids } from '../src/queue/index.js';
import { runScenarioBench } from './queue-scenario.js';

const SIZES = [1_000, 100_000];
const MATCHES = 100_000;
const ROUNDS = 5;

interface Rig {
  matchRound(): Promise<number>;
  floorRound(): number;
}

async function rig(waiting: number): Promise<Rig> {
  const store = new MemoryQueueStore();
  let now = 0;
  const matcher = new QueueMatcher({ store, clock: () => now, newSid: seededQueueSids(1) });
  const queue = await matcher.queue('AC1', 'bench');
  let next = 0;
  let dialer = 0;
  for (; next < waiting; next++) {
    await store.enqueue(queue.sid, { callSid: `A${next}`, side: 'enqueued', enqueuedAt: 0 });
  }
  const map = new Map<string, number>();
  let mapHead = 0;
  let mapNext = 0;
  for (; mapNext < waiting; mapNext++) map.set(`A${mapNext}`, mapNext);

  return {
    async matchRound() {
      const start = process.hrtime.bigint();
      for (let i = 0; i < MATCHES; i++) {
        now += 1;
        const callSid = `C${dialer++}`;
        const outcome = await matcher.arrive({
          accountSid: 'AC1',
          queueName: 'bench',
          callSid,
          side: 'dialer',
        });
        if (outcome.status !== 'matched') throw new Error(`expected a match, got ${outcome.status}`);
        await store.enqueue(queue.sid, { callSid: `A${next++}`, side: 'enqueued', enqueuedAt: now });
      }
      return Number(process.hrtime.bigint() - start) / MATCHES;
    },
    floorRound() {
      const start = process.hrtime.bigint();
      for (let i = 0; i < MATCHES; i++) {
        map.delete(`A${mapHead++}`);
        map.set(`A${mapNext}`, mapNext++);
      }
      return Number(process.hrtime.bigint() - start) / MATCHES;
    },
  };
}

export async function run(): Promise<void> {
  const rigs = await Promise.all(SIZES.map(rig));
  const best = SIZES.map(() => ({ match: Number.POSITIVE_INFINITY, floor: Number.POSITIVE_INFINITY }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, r] of rigs.entries()) {
      best[i].match = Math.min(best[i].match, await r.matchRound());
      best[i].floor = Math.min(best[i].floor, r.floorRound());
    }
  }
  for (const [i, waiting] of SIZES.entries()) {
    const { match, floor } = best[i];
    console.log(
      `match with ${waiting.toLocaleString('en')} waiting: ${match.toFixed(0)} ns/match` +
        ` | floor (Map delete+set): ${floor.toFixed(0)} ns | ${(match / floor).toFixed(1)}x floor`,
    );
  }
  const [small, large] = best;
  console.log(
    `ratio 100,000 / 1,000 waiting: ${(large.match / small.match).toFixed(2)} (goal <= 1.5;` +
      ` floor ratio ${(large.floor / small.floor).toFixed(2)})`,
  );
  await runScenarioBench();
}
