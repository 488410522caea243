/**
 * The SQLite writes of a call as `rcml serve` makes them: its record stored when made, then at
 * ringing, answered and ended, ten calls to a group commit, into a store already holding
 * 20,000 calls of 3 accounts, 1,000 numbers. Prints the process CPU per call (user + system,
 * the system part is mostly the WAL's page writes) beside a floor measured in the same run: the
 * same four writes of each call as upserts of (sid, JSON) into a bare table, in the same
 * commits. Three rounds, interleaved, medians printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { CallRecord } from '../src/engine/records.js';
import { openSqliteStore } from '../src/store/sqlite/open.js';

const CALLS = 5_000;
const PREFILL = 20_000;
const GROUP = 10;
const ROUNDS = 3;

function callOf(n: number, status: CallRecord['status']): CallRecord {
  const created = Date.UTC(2026, 0, 1) + n * 10;
  const answered = status === 'in-progress' || status === 'completed';
  return {
    sid: `CA${n.toString(16).padStart(32, '0')}`,
    accountSid: `AC${(n % 3).toString(16).padStart(32, '0')}`,
    direction: 'outbound-api',
    from: `+1555${(n % 100).toString().padStart(7, '0')}`,
    to: `+1666${(n % 1000).toString().padStart(7, '0')}`,
    status,
    instanceId: 'ID1',
    apiVersion: '2012-04-24',
    dateCreated: created,
    dateUpdated: created,
    startTime: answered ? created + 1000 : undefined,
    endTime: status === 'completed' ? created + 2000 : undefined,
    duration: status === 'completed' ? 1 : undefined,
  };
}

const STEPS: Array<CallRecord['status']> = ['queued', 'ringing', 'in-progress', 'completed'];

/** CPU µs per call of `write` over calls [from, from + CALLS), each step in groups. */
async function measure(from: number, write: (batch: CallRecord[]) => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  for (const status of STEPS) {
    for (let g = from; g < from + CALLS; g += GROUP) {
      await write(Array.from({ length: GROUP }, (_, i) => callOf(g + i, status)));
    }
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-bench-writes-'));
  try {
    // No commit delay: the writes of one batch, queued in one turn, commit together at once.
    const store = await openSqliteStore({ dir: join(dir, 'store'), writes: { delayMs: 0 } });
    const stored = async (batch: CallRecord[]) => {
      await Promise.all(batch.map((c) => store.calls.put(c)));
    };
    const bare = new Database(join(dir, 'bare.sqlite'));
    bare.pragma('journal_mode = WAL');
    bare.pragma('synchronous = NORMAL');
    bare.exec('CREATE TABLE calls (sid TEXT PRIMARY KEY, data TEXT NOT NULL)');
    const upsert = bare.prepare(
      'INSERT INTO calls (sid, data) VALUES (?, ?) ON CONFLICT (sid) DO UPDATE SET data = excluded.data',
    );
    const commit = bare.transaction((batch: CallRecord[]) => {
      for (const c of batch) upsert.run(c.sid, JSON.stringify(c));
    });
    const raw = async (batch: CallRecord[]) => commit.immediate(batch);
    await measure(0, stored);
    await measure(0, raw);
    for (let n = CALLS; n < PREFILL; n += CALLS) {
      await measure(n, stored);
      await measure(n, raw);
    }
    const floors: number[] = [];
    const calls: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const from = PREFILL + r * CALLS;
      floors.push(await measure(from, raw));
      calls.push(await measure(from, stored));
    }
    await store.close();
    bare.close();
    const floor = median(floors);
    const call = median(calls);
    console.log(`a call's writes (4 steps, ${GROUP} calls a commit): ${call.toFixed(0)} µs CPU per call`);
    console.log(`floor (same writes, bare sid+JSON table): ${floor.toFixed(0)} µs CPU per call`);
    console.log(`ratio floor/call ${Math.round((100 * floor) / call)}%`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
