/**
 * Queue costs with 1,000 vs 100,000 parties waiting.
 *
 * Match: a dialer arriving through `QueueMatcher.arrive` meets the head of the enqueued side;
 * the store then gets one new member at the tail so the line keeps its length. Lines are filled
 * through the store directly because the matcher caps a side at 5,000. Floor: a plain Map
 * delete+set per match with as many entries. Each of 5 rounds gives one 100,000 / 1,000 ratio;
 * the median, min and max of the 5 are printed. Within a round the two sizes take turns in
 * chunks of 500 matches, and time is the process's CPU time, so a machine busy with other work
 * skews neither side of a ratio.
 *
 * Store operations: `enqueue`, `dequeueHead` and `remove` (of a member anywhere in the line) on
 * `MemoryQueueStore`, each timed in batches of 100 while the line stays near its size (the
 * untimed opposite operation restores it after each batch), sizes taking turns batch by batch;
 * the median of 5 rounds counts.
 */
import { MemoryQueueStore, QueueMatcher, seededQueueSids } from '../src/queue/index.js';
import { runScenarioBench } from './queue-scenario.js';

const SIZES = [1_000, 100_000] as const;
const MATCHES = 10_000;
const CHUNK = 500;
const ROUNDS = 5;
const BATCH = 100;
const OPERATIONS = 50_000;

/** CPU time of the process (all its threads, garbage collection included), in nanoseconds. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

interface Rig {
  /** CPU nanoseconds of `count` matches. */
  matches(count: number): Promise<number>;
  /** CPU nanoseconds of `count` floor operations. */
  floor(count: number): number;
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
    async matches(count) {
      const start = cpuNow();
      for (let i = 0; i < count; i++) {
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
      return cpuNow() - start;
    },
    floor(count) {
      const start = cpuNow();
      for (let i = 0; i < count; i++) {
        map.delete(`A${mapHead++}`);
        map.set(`A${mapNext}`, mapNext++);
      }
      return cpuNow() - start;
    },
  };
}

type Operation = 'enqueue' | 'dequeueHead' | 'remove';
const OPERATION_NAMES: readonly Operation[] = ['enqueue', 'dequeueHead', 'remove'];

/** A store holding one line of `waiting` members and the sids it holds, for the operation timings. */
async function operationRig(waiting: number) {
  const store = new MemoryQueueStore();
  const sid = 'QU1';
  await store.ensureQueue({ sid, accountSid: 'AC1', name: 'ops', maxSize: 1, dateCreated: 0 });
  // Live sids; `remove` picks from them with a fixed-seed generator.
  const live: string[] = [];
  let next = 0;
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  const add = async () => {
    const callSid = `A${next++}`;
    live.push(callSid);
    await store.enqueue(sid, { callSid, side: 'enqueued', enqueuedAt: 0 });
  };
  for (let i = 0; i < waiting; i++) await add();
  let head = 0; // live[head] is the line's head while only the head leaves
  const compact = () => {
    live.splice(0, head);
    head = 0;
  };

  /** CPU nanoseconds of one batch of BATCH operations. */
  return async (operation: Operation): Promise<number> => {
    let elapsed = 0;
    if (operation === 'enqueue') {
      const start = cpuNow();
      for (let i = 0; i < BATCH; i++) {
        const callSid = `A${next++}`;
        live.push(callSid);
        await store.enqueue(sid, { callSid, side: 'enqueued', enqueuedAt: 0 });
      }
      elapsed += cpuNow() - start;
      for (let i = 0; i < BATCH; i++) {
        await store.dequeueHead(sid, 'enqueued');
        head++;
      }
    } else if (operation === 'dequeueHead') {
      for (let i = 0; i < BATCH; i++) await add();
      const start = cpuNow();
      for (let i = 0; i < BATCH; i++) await store.dequeueHead(sid, 'enqueued');
      elapsed += cpuNow() - start;
      head += BATCH;
    } else {
      compact();
      const picks: string[] = [];
      for (let i = 0; i < BATCH; i++) {
        const at = random() % live.length;
        picks.push(live[at]);
        live[at] = live[live.length - 1];
        live.pop();
      }
      const start = cpuNow();
      for (const callSid of picks) await store.remove(sid, 'enqueued', callSid);
      elapsed += cpuNow() - start;
      for (let i = 0; i < BATCH; i++) await add();
      // The line's order is no longer `live`'s: keep `remove` the last operation measured.
    }
    if (head > waiting) compact();
    return elapsed;
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ns = (value: number) => `${value.toFixed(0)} ns`;

export async function run(): Promise<void> {
  const rigs = await Promise.all(SIZES.map(rig));
  const match = SIZES.map(() => [] as number[]);
  const floor = SIZES.map(() => [] as number[]);
  const ratios: number[] = [];
  const floorRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const spent = SIZES.map(() => ({ match: 0, floor: 0 }));
    for (let done = 0; done < MATCHES; done += CHUNK) {
      for (const [i, r] of rigs.entries()) {
        spent[i].match += await r.matches(CHUNK);
        spent[i].floor += r.floor(CHUNK);
      }
    }
    for (const [i, { match: m, floor: f }] of spent.entries()) {
      match[i].push(m / MATCHES);
      floor[i].push(f / MATCHES);
    }
    ratios.push(match[1][round] / match[0][round]);
    floorRatios.push(floor[1][round] / floor[0][round]);
  }
  for (const [i, waiting] of SIZES.entries()) {
    const m = median(match[i]);
    const f = median(floor[i]);
    console.log(
      `match with ${waiting.toLocaleString('en')} waiting: ${ns(m)}/match (median of ${ROUNDS})` +
        ` | floor (Map delete+set): ${ns(f)} | ${(m / f).toFixed(1)}x floor`,
    );
  }
  console.log(
    `match cost ratio 100,000 / 1,000 waiting over ${ROUNDS} rounds: median ${median(ratios).toFixed(2)},` +
      ` min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)} (goal <= 1.5;` +
      ` floor ratio median ${median(floorRatios).toFixed(2)})`,
  );

  const timers = await Promise.all(SIZES.map(operationRig));
  for (const operation of OPERATION_NAMES) {
    const costs = SIZES.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      const spent = SIZES.map(() => 0);
      for (let done = 0; done < OPERATIONS; done += BATCH) {
        for (const [i, batch] of timers.entries()) spent[i] += await batch(operation);
      }
      for (const [i, total] of spent.entries()) costs[i].push(total / OPERATIONS);
    }
    const [small, large] = costs.map(median);
    console.log(
      `${`store.${operation}`.padEnd(18)} 1,000 waiting: ${ns(small).padStart(7)}/op` +
        ` | 100,000 waiting: ${ns(large).padStart(7)}/op | ratio ${(large / small).toFixed(2)}`,
    );
  }
  await runScenarioBench();
}
