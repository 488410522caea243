import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConferenceRecord, GatherRecord, NotificationRecord } from '../../src/engine/records.js';
import type { Store } from '../../src/store/ports.js';
import { type Prunable, parseAge, pruneOlderThan } from '../../src/store/retention.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { openScratchPostgres, PG_URL } from '../support/services.js';
import { ACCOUNT_A, ACCOUNT_B, account, call, recording, wav } from './fixtures.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2024, 5, 1);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-retention-'));
  dirs.push(dir);
  return dir;
}

const gather = (
  n: number,
  kind: 'dtmf' | 'speech',
  dateCreated: number,
  accountSid = ACCOUNT_A,
): GatherRecord => {
  const base = {
    sid: `GA${kind[0]}${n.toString(16).padStart(31, '0')}`,
    accountSid,
    callSid: call(n).sid,
    dateCreated,
    preTimeout: 5,
    postTimeout: 5,
    actionOnEmptyResult: false,
    status: 'completed' as const,
    reason: '',
  };
  return kind === 'dtmf'
    ? ({ ...base, kind, digitsCount: 1, digits: '1' } as GatherRecord)
    : ({
        ...base,
        kind,
        provider: 'p',
        language: 'en',
        hints: '',
        duration: 1,
        speechResult: 'yes',
      } as GatherRecord);
};
const notification = (n: number, dateCreated: number, accountSid = ACCOUNT_A): NotificationRecord => ({
  sid: `NO${n.toString(16).padStart(32, '0')}`,
  accountSid,
  callSid: call(n).sid,
  code: '11200',
  log: 0,
  message: 'm',
  dateCreated,
});

const room = (
  n: number,
  dateCreated: number,
  accountSid = ACCOUNT_A,
  status: ConferenceRecord['status'] = 'completed',
): ConferenceRecord => ({
  sid: `CF${n.toString(16).padStart(32, '0')}`,
  accountSid,
  friendlyName: `room${n}`,
  status,
  dateCreated,
  dateUpdated: dateCreated,
  participants: [],
});

/**
 * Fills a store with records of two accounts: `old` ones 40 days back (one of them a live call,
 * one an open conference room), `recent` ones a day back.
 */
async function fill(store: Store, old: number, recent: number) {
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  let n = 0;
  for (const [count, age] of [
    [old, 40 * DAY],
    [recent, DAY],
  ] as const) {
    for (let i = 0; i < count; i++) {
      n++;
      const at = NOW - age + n;
      const accountSid = n % 2 ? ACCOUNT_A : ACCOUNT_B;
      await store.calls.put(call(n, { accountSid, dateCreated: at }));
      await store.recordings.put(recording(n, { accountSid, dateCreated: at }), wav(8));
      await store.gathers.put(gather(n, n % 3 ? 'dtmf' : 'speech', at, accountSid));
      await store.notifications.put(notification(n, at, accountSid));
      await store.conferences.put(room(n, at, accountSid));
    }
  }
  await store.calls.put(call(999, { dateCreated: NOW - 50 * DAY, status: 'in-progress' }));
  await store.conferences.put(room(999, NOW - 50 * DAY, ACCOUNT_A, 'in-progress'));
}

async function remaining(store: Store) {
  const page = { offset: 0, limit: 1000 };
  const count = async (list: (accountSid: string) => Promise<{ total: number }>) =>
    (await list(ACCOUNT_A)).total + (await list(ACCOUNT_B)).total;
  return {
    calls: await count((a) => store.calls.list({ accountSid: a, ...page })),
    recordings: await count((a) => store.recordings.list({ accountSid: a, ...page })),
    gathers:
      (await count((a) => store.gathers.list({ accountSid: a, kind: 'dtmf', ...page }))) +
      (await count((a) => store.gathers.list({ accountSid: a, kind: 'speech', ...page }))),
    notifications: await count((a) => store.notifications.list({ accountSid: a, ...page })),
    conferences: await count((a) => store.conferences.list({ accountSid: a, ...page })),
  };
}

function wavFiles(dir: string): string[] {
  const root = join(dir, 'recordings');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((acct) => readdirSync(join(root, acct)).map((f) => `${acct}/${f}`));
}

describe('retention over SQLite', () => {
  it('removes old calls, recordings with their WAV files, gathers, notifications and ended rooms, in batches', async () => {
    const dir = tempDir();
    const store = await openSqliteStore({ dir, now: () => NOW });
    await fill(store, 7, 3);
    expect(wavFiles(dir)).toHaveLength(10);
    const versionBefore = await store.calls.version?.(ACCOUNT_A);
    let pauses = 0;
    const counts = await pruneOlderThan(store, NOW - 30 * DAY, {
      batchSize: 2,
      pause: async () => {
        pauses++;
      },
    });
    expect(counts).toEqual({ calls: 7, recordings: 7, gathers: 7, notifications: 7, conferences: 7 });
    // Two accounts, two records each per batch: seven old ones take two batches, and one finds none.
    expect(pauses).toBe(2);
    // The live call and the open room stay however old; the recent records stay.
    expect(await remaining(store)).toEqual({
      calls: 4,
      recordings: 3,
      gathers: 3,
      notifications: 3,
      conferences: 4,
    });
    expect(await store.calls.get(ACCOUNT_A, call(999).sid)).toMatchObject({ status: 'in-progress' });
    expect(await store.conferences.get(ACCOUNT_A, room(999, 0).sid)).toMatchObject({ status: 'in-progress' });
    // Rows and files together: every file left has its row, every row its file.
    const files = wavFiles(dir).sort();
    expect(files).toHaveLength(3);
    for (const n of [8, 9, 10]) {
      const r = recording(n);
      const acct = n % 2 ? ACCOUNT_A : ACCOUNT_B;
      expect(files).toContain(`${acct}/${r.sid}.wav`);
      expect(await store.recordings.wav(acct, r.sid)).toEqual(wav(8));
    }
    // Cached lists of the account whose calls went are dropped.
    expect(await store.calls.version?.(ACCOUNT_A)).not.toBe(versionBefore);
    expect(await pruneOlderThan(store, NOW - 30 * DAY)).toEqual({
      calls: 0,
      recordings: 0,
      gathers: 0,
      notifications: 0,
      conferences: 0,
    });
    await store.close();
  });

  it('keeps exactly the records created at or after the cut-off (property)', async () => {
    const dir = tempDir();
    const store = await openSqliteStore({ dir, now: () => NOW });
    await store.accounts.put(account(ACCOUNT_A));
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 7 }),
        async (ages, cutoff, batchSize) => {
          round++;
          const sids: Array<{ sid: string; age: number }> = [];
          for (const [i, age] of ages.entries()) {
            const n = round * 1000 + i;
            await store.calls.put(call(n, { dateCreated: NOW - age * DAY }));
            await store.recordings.put(recording(n, { dateCreated: NOW - age * DAY }), wav(2));
            sids.push({ sid: recording(n).sid, age });
          }
          const counts = await pruneOlderThan(store, NOW - cutoff * DAY, {
            batchSize,
            pause: async () => {},
          });
          const expected = ages.filter((a) => a > cutoff).length;
          expect(counts.calls).toBe(expected);
          expect(counts.recordings).toBe(expected);
          for (const { sid, age } of sids) {
            const kept = age <= cutoff;
            expect((await store.recordings.get(ACCOUNT_A, sid)) !== undefined).toBe(kept);
            expect(existsSync(join(dir, 'recordings', ACCOUNT_A, `${sid}.wav`))).toBe(kept);
          }
          // Clean slate for the next run.
          await pruneOlderThan(store, NOW + DAY, { pause: async () => {} });
        },
      ),
      { numRuns: 25, seed: 23 },
    );
    expect(wavFiles(dir)).toEqual([]);
    await store.close();
  });
});

describe.skipIf(!PG_URL)('retention over PostgreSQL', () => {
  it('removes old records of every account in batches, live calls kept', async () => {
    const store = await openScratchPostgres();
    await fill(store, 5, 2);
    await store.settled();
    const versionBefore = await store.calls.version?.(ACCOUNT_B);
    const counts = await pruneOlderThan(store as Prunable, NOW - 30 * DAY, { batchSize: 2 });
    expect(counts).toEqual({ calls: 5, recordings: 5, gathers: 5, notifications: 5, conferences: 5 });
    expect(await remaining(store)).toEqual({
      calls: 3,
      recordings: 2,
      gathers: 2,
      notifications: 2,
      conferences: 3,
    });
    expect(await store.conferences.get(ACCOUNT_A, room(999, 0).sid)).toMatchObject({ status: 'in-progress' });
    expect(await store.calls.version?.(ACCOUNT_B)).not.toBe(versionBefore);
    await store.close();
  });
});

describe('parseAge', () => {
  it('reads seconds, minutes, hours and days, and refuses the rest', () => {
    expect(parseAge('30d')).toBe(30 * DAY);
    expect(parseAge('12h')).toBe(12 * 3_600_000);
    expect(parseAge('90m')).toBe(90 * 60_000);
    expect(parseAge('45s')).toBe(45_000);
    for (const bad of ['30', 'd', '0d', '-1d', '1w', '1.5d', '']) expect(parseAge(bad)).toBeUndefined();
  });
});
