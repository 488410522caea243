import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/engine/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/ports.js';
import { createStoreSink } from '../../src/store/sink.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import type { CallQuery, CallSortKey, NotificationQuery } from '../../src/store/types.js';
import { openScratchPostgres, PG_URL } from '../support/services.js';
import { ACCOUNT_A, ACCOUNT_B, account, call, recording, wav } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-store-'));
  dirs.push(d);
  return d;
}

// PostgreSQL joins when the run has a server (otherwise one line at start says it is skipped).
const kinds: Array<[string, () => Store | Promise<Store>]> = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => openSqliteStore({ dir: tempDir() })],
  ...(PG_URL ? [['postgres', () => openScratchPostgres()] as [string, () => Promise<Store>]] : []),
];

describe.each(kinds)('%s store', (_name, open) => {
  it('keeps accounts and lists them oldest first', async () => {
    const s = await open();
    await s.accounts.put({ ...account(ACCOUNT_B), dateCreated: 2 });
    await s.accounts.put({ ...account(ACCOUNT_A), dateCreated: 1 });
    expect((await s.accounts.list()).map((a) => a.sid)).toEqual([ACCOUNT_A, ACCOUNT_B]);
    expect(await s.accounts.get(ACCOUNT_A)).toEqual({ ...account(ACCOUNT_A), dateCreated: 1 });
    expect(await s.accounts.get('ACnope')).toBeUndefined();
    await s.close();
  });

  it('replaces a call on put and hides it from other accounts', async () => {
    const s = await open();
    await s.calls.put(call(1, { status: 'ringing', duration: undefined, endTime: undefined }));
    await s.calls.put(call(1, { status: 'completed' }));
    expect((await s.calls.get(ACCOUNT_A, call(1).sid))?.status).toBe('completed');
    expect(await s.calls.get(ACCOUNT_B, call(1).sid)).toBeUndefined();
    expect((await s.calls.list({ accountSid: ACCOUNT_A, offset: 0, limit: 10 })).total).toBe(1);
    await s.close();
  });

  it('lists live calls of every account', async () => {
    const s = await open();
    await s.calls.putMany([
      call(1),
      call(2, { status: 'in-progress' }),
      call(3, { status: 'queued', accountSid: ACCOUNT_B }),
    ]);
    expect((await s.calls.listLive()).map((c) => c.sid).sort()).toEqual([call(2).sid, call(3).sid]);
    await s.close();
  });

  it("versions an account's calls: any write to them changes it, other accounts' do not", async () => {
    const s = await open();
    const version = (sid: string) => s.calls.version?.(sid);
    const a0 = await version(ACCOUNT_A);
    const b0 = await version(ACCOUNT_B);
    expect(a0).toBeTypeOf('number');
    await s.calls.put(call(1));
    const a1 = await version(ACCOUNT_A);
    expect(a1).not.toBe(a0);
    expect(await version(ACCOUNT_B)).toBe(b0);
    await s.calls.putMany([call(2), call(3)]);
    const a2 = await version(ACCOUNT_A);
    expect(a2).not.toBe(a1);
    expect(await version(ACCOUNT_A)).toBe(a2);
    // A call moving to another account changes both lists.
    await s.calls.put(call(1, { accountSid: ACCOUNT_B }));
    expect(await version(ACCOUNT_A)).not.toBe(a2);
    expect(await version(ACCOUNT_B)).not.toBe(b0);
    // So does one no longer live, whose account only the stored row knows.
    await s.calls.put(call(4, { status: 'completed' }));
    const a3 = await version(ACCOUNT_A);
    const b3 = await version(ACCOUNT_B);
    const moved = s.calls.put(call(4, { status: 'completed', accountSid: ACCOUNT_B }));
    expect(await version(ACCOUNT_A)).not.toBe(a3);
    expect(await version(ACCOUNT_B)).not.toBe(b3);
    await moved;
    expect(await s.calls.get(ACCOUNT_A, call(4).sid)).toBeUndefined();
    expect((await s.calls.get(ACCOUNT_B, call(4).sid))?.accountSid).toBe(ACCOUNT_B);
    await s.close();
  });

  it('stops counting at countLimit but still serves the page', async () => {
    const s = await open();
    await s.calls.putMany(Array.from({ length: 12 }, (_, i) => call(i)));
    const q = { accountSid: ACCOUNT_A, offset: 0, limit: 3 };
    expect((await s.calls.list(q)).total).toBe(12);
    expect((await s.calls.list({ ...q, countLimit: 5 })).total).toBe(5);
    expect((await s.calls.list({ ...q, countLimit: 50 })).total).toBe(12);
    const beyond = await s.calls.list({ ...q, offset: 6, countLimit: 5 });
    expect(beyond).toEqual({ items: [call(6), call(7), call(8)], total: 5, offset: 6 });
    await s.close();
  });

  it('starts recording, gather and notification pages after afterSid, in each list order', async () => {
    const s = await open();
    for (let n = 1; n <= 5; n++) await s.recordings.put(recording(n, { duration: 6 - n }), wav(1));
    const byDuration = { accountSid: ACCOUNT_A, sort: { by: 'duration', order: 'desc' } } as const;
    const recs = await s.recordings.list({ ...byDuration, offset: 0, limit: 2, afterSid: recording(2).sid });
    expect(recs.offset).toBe(2);
    expect(recs.items.map((r) => r.sid)).toEqual([recording(3).sid, recording(4).sid]);
    const byCreation = await s.recordings.list({
      accountSid: ACCOUNT_A,
      offset: 0,
      limit: 9,
      afterSid: recording(4).sid,
    });
    expect(byCreation.items.map((r) => r.sid)).toEqual([recording(5).sid]);
    for (let n = 1; n <= 3; n++) {
      await s.notifications.put({
        sid: `NO${n}`,
        accountSid: ACCOUNT_A,
        code: 'x',
        log: 1,
        message: 'm',
        dateCreated: n,
      });
    }
    const notes = await s.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 5, afterSid: 'NO1' });
    expect(notes).toMatchObject({ total: 3, offset: 1 });
    expect(notes.items).toHaveLength(2);
    await s.close();
  });

  it('gets notifications through their account and filters them by call, level and time', async () => {
    const s = await open();
    const note = (n: number, log: 0 | 1, callSid?: string, accountSid = ACCOUNT_A) =>
      s.notifications.put({
        sid: `NO${n}`,
        accountSid,
        callSid,
        code: 'x',
        log,
        message: 'm',
        dateCreated: n,
      });
    await note(1, 0, call(1).sid);
    await note(2, 1, call(1).sid);
    await note(3, 1);
    await note(4, 0, call(2).sid);
    await note(5, 1, call(1).sid, ACCOUNT_B);
    expect(await s.notifications.get(ACCOUNT_A, 'NO3')).toMatchObject({ log: 1, dateCreated: 3 });
    expect((await s.notifications.get(ACCOUNT_A, 'NO3'))?.callSid).toBeUndefined();
    expect(await s.notifications.get(ACCOUNT_B, 'NO3')).toBeUndefined();
    const sids = async (q: Partial<NotificationQuery>) =>
      (await s.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 9, ...q })).items.map(
        (n) => n.sid,
      );
    expect(await sids({ callSid: call(1).sid })).toEqual(['NO1', 'NO2']);
    expect(await sids({ log: 1 })).toEqual(['NO2', 'NO3']);
    expect(await sids({ log: 0, callSid: call(2).sid })).toEqual(['NO4']);
    expect(await sids({ createdFrom: 2, createdTo: 3 })).toEqual(['NO2', 'NO3']);
    expect(await sids({ log: 1, afterSid: 'NO2' })).toEqual(['NO3']);
    await s.close();
  });

  it('deletes an application record only through its account', async () => {
    const s = await open();
    const app = {
      sid: `AP${'1'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      friendlyName: 'menu',
      kind: 'voice' as const,
      voiceCallerIdLookup: false,
      rcmlUrl: '/visual-designer/services/apps/x/controller',
      apiVersion: '2012-04-24',
      dateCreated: 1,
      dateUpdated: 1,
    };
    await s.applications.put(app);
    expect(await s.applications.delete(ACCOUNT_B, app.sid)).toBe(false);
    expect(await s.applications.get(ACCOUNT_A, app.sid)).toEqual(app);
    expect(await s.applications.delete(ACCOUNT_A, app.sid)).toBe(true);
    expect(await s.applications.get(ACCOUNT_A, app.sid)).toBeUndefined();
    expect(await s.applications.delete(ACCOUNT_A, app.sid)).toBe(false);
    await s.close();
  });

  it('stores recordings with their WAV bytes and deletes both', async () => {
    const s = await open();
    const bytes = wav(100);
    await s.recordings.put(recording(1), bytes);
    expect(await s.recordings.wav(ACCOUNT_A, recording(1).sid)).toEqual(bytes);
    expect(await s.recordings.wav(ACCOUNT_B, recording(1).sid)).toBeUndefined();
    expect(await s.recordings.delete(ACCOUNT_B, recording(1).sid)).toBe(false);
    expect(await s.recordings.delete(ACCOUNT_A, recording(1).sid)).toBe(true);
    expect(await s.recordings.get(ACCOUNT_A, recording(1).sid)).toBeUndefined();
    expect(await s.recordings.wav(ACCOUNT_A, recording(1).sid)).toBeUndefined();
    expect(await s.recordings.delete(ACCOUNT_A, recording(1).sid)).toBe(false);
    await s.close();
  });

  it('persists what the engine reports through the record sink', async () => {
    const s = await open();
    const sink = createStoreSink(s);
    sink.call?.(call(7));
    sink.recording?.(recording(7), wav(8));
    sink.gather?.({
      kind: 'dtmf',
      sid: `GA${'1'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      callSid: call(7).sid,
      dateCreated: 5,
      preTimeout: 5,
      postTimeout: 5,
      actionOnEmptyResult: false,
      status: 'completed',
      reason: '',
      apiVersion: '2012-04-24',
      digitsCount: 2,
      digits: '12',
    });
    sink.notification?.({
      sid: `NO${'1'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      code: '11205',
      log: 0,
      message: 'x',
      dateCreated: 1,
    });
    expect(await s.calls.get(ACCOUNT_A, call(7).sid)).toEqual(call(7));
    expect((await s.recordings.wav(ACCOUNT_A, recording(7).sid))?.byteLength).toBe(44 + 16);
    expect((await s.gathers.get(ACCOUNT_A, 'dtmf', `GA${'1'.repeat(32)}`))?.kind).toBe('dtmf');
    expect(await s.gathers.get(ACCOUNT_A, 'speech', `GA${'1'.repeat(32)}`)).toBeUndefined();
    expect((await s.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 5 })).total).toBe(1);
    await s.close();
  });

  it('answers call queries like a plain filter-and-sort (property)', async () => {
    const s = await open();
    const arbCall = fc.record({
      n: fc.integer({ min: 1, max: 10_000 }),
      account: fc.constantFrom(ACCOUNT_A, ACCOUNT_B),
      from: fc.constantFrom('+1', '+2', 'client:bob'),
      to: fc.constantFrom('+3', '+4', 'sip:a@b'),
      status: fc.constantFrom('queued', 'in-progress', 'completed', 'busy', 'failed' as const),
      direction: fc.constantFrom('inbound', 'outbound-api', 'outbound-dial' as const),
      created: fc.integer({ min: 0, max: 50 }),
      duration: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
      started: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
    });
    const arbQuery = fc.record({
      to: fc.option(fc.constantFrom('+3', '+4'), { nil: undefined }),
      from: fc.option(fc.constantFrom('+1', 'client:bob'), { nil: undefined }),
      status: fc.option(fc.constantFrom('completed', 'busy' as const), { nil: undefined }),
      startedFrom: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      endedTo: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
      by: fc.constantFrom<CallSortKey>('dateCreated', 'from', 'to', 'direction', 'status', 'duration'),
      order: fc.constantFrom('asc', 'desc' as const),
      offset: fc.integer({ min: 0, max: 12 }),
      limit: fc.integer({ min: 0, max: 12 }),
      anchor: fc.nat(),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(arbCall, { selector: (c) => c.n, maxLength: 30 }),
        arbQuery,
        async (specs, q) => {
          round++;
          const calls: CallRecord[] = specs.map((x) =>
            call(x.n + round * 100_000, {
              accountSid: x.account,
              from: x.from,
              to: x.to,
              status: x.status,
              direction: x.direction,
              dateCreated: x.created,
              duration: x.duration,
              startTime: x.started,
              endTime: x.started === undefined ? undefined : x.started + 50,
              instanceId: String(round),
            }),
          );
          await s.calls.putMany(calls);
          const query: CallQuery = {
            accountSid: ACCOUNT_A,
            to: q.to,
            from: q.from,
            status: q.status,
            startedFrom: q.startedFrom,
            endedTo: q.endedTo,
            sort: { by: q.by, order: q.order },
            offset: q.offset,
            limit: q.limit,
          };
          const got = await s.calls.list(query);
          const all = (await s.calls.list({ ...query, offset: 0, limit: 1_000_000 })).items.filter(
            (c) => c.instanceId === String(round),
          );
          const expected = calls.filter(
            (c) =>
              c.accountSid === ACCOUNT_A &&
              (q.to === undefined || c.to === q.to) &&
              (q.from === undefined || c.from === q.from) &&
              (q.status === undefined || c.status === q.status) &&
              (q.startedFrom === undefined || (c.startTime !== undefined && c.startTime >= q.startedFrom)) &&
              (q.endedTo === undefined || (c.endTime !== undefined && c.endTime <= q.endedTo)),
          );
          // The round's own calls, in the store's order, are exactly the expected set, sorted.
          expect(all.map((c) => c.sid).sort()).toEqual(expected.map((c) => c.sid).sort());
          const key = (c: CallRecord) => (q.by === 'duration' ? (c.duration ?? 0) : c[q.by]);
          for (let i = 1; i < all.length; i++) {
            const [a, b] = [key(all[i - 1]), key(all[i])];
            if (a !== b) expect(q.order === 'asc' ? a < b : a > b).toBe(true);
          }
          expect(got.items.length).toBeLessThanOrEqual(q.limit);
          expect(got.total).toBeGreaterThanOrEqual(expected.length);
          expect(got.offset).toBe(q.offset);
          // afterSid starts the window right after that record of the list, whatever the offset.
          const full = (await s.calls.list({ ...query, offset: 0, limit: 1_000_000 })).items;
          if (full.length > 0) {
            const at = q.anchor % full.length;
            const after = await s.calls.list({ ...query, afterSid: full[at].sid });
            expect(after.offset).toBe(at + 1);
            expect(after.items.map((c) => c.sid)).toEqual(
              full.slice(at + 1, at + 1 + q.limit).map((c) => c.sid),
            );
          }
          expect((await s.calls.list({ ...query, afterSid: 'CAnone' })).offset).toBe(q.offset);
        },
      ),
      { numRuns: process.env.RCML_DEEP ? 500 : 60 },
    );
    await s.close();
  });
});

describe.each(kinds.slice(1))('memory and %s stores agree', (_name, open) => {
  it('on every page of a sorted, filtered list', async () => {
    const mem = createMemoryStore();
    const sql = await open();
    const calls = Array.from({ length: 40 }, (_, i) =>
      call(i, {
        to: i % 3 === 0 ? '+3' : '+4',
        duration: i % 7,
        status: i % 5 === 0 ? 'busy' : 'completed',
        dateCreated: 1000 + (i % 4),
      }),
    );
    await mem.calls.putMany(calls);
    await sql.calls.putMany(calls);
    for (const by of ['dateCreated', 'duration', 'status', 'to'] as const) {
      for (let offset = 0; offset < 45; offset += 10) {
        const q: CallQuery = { accountSid: ACCOUNT_A, sort: { by, order: 'desc' }, offset, limit: 10 };
        expect(await sql.calls.list(q)).toEqual(await mem.calls.list(q));
        expect(await sql.calls.list({ ...q, to: '+3' })).toEqual(await mem.calls.list({ ...q, to: '+3' }));
        const after = { ...q, afterSid: call(offset).sid };
        expect(await sql.calls.list(after)).toEqual(await mem.calls.list(after));
        expect(await sql.calls.list({ ...after, to: '+3' })).toEqual(
          await mem.calls.list({ ...after, to: '+3' }),
        );
      }
    }
    await sql.close();
  });
});
