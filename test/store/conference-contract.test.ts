import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConferenceRecord, ConferenceStatus, ParticipantRecord } from '../../src/engine/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/ports.js';
import { closeInterruptedCalls, closeInterruptedRooms } from '../../src/store/recover.js';
import { sequentialSids } from '../../src/store/sid.js';
import { createStoreSink } from '../../src/store/sink.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import type { ConferenceQuery } from '../../src/store/types.js';
import { openScratchPostgres, PG_URL, uniqueName } from '../support/services.js';
import { ACCOUNT_A, ACCOUNT_B, call } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-store-'));
  dirs.push(d);
  return d;
}

const T0 = Date.UTC(2024, 2, 5, 12);

/** Participant of call `n` (the fixture call's sid). */
function seat(n: number, over: Partial<ParticipantRecord> = {}): ParticipantRecord {
  return {
    callSid: call(n).sid,
    muted: false,
    hold: false,
    startConferenceOnEnter: true,
    endConferenceOnExit: false,
    joinedAt: T0 + n,
    ...over,
  };
}

/** Room `n`, created `n` seconds after T0, in progress with call `n`; override any field. */
function room(n: number, over: Partial<ConferenceRecord> = {}): ConferenceRecord {
  return {
    sid: `CF${n.toString(16).padStart(32, '0')}`,
    accountSid: ACCOUNT_A,
    friendlyName: `room-${n % 3}`,
    status: 'in-progress',
    dateCreated: T0 + n * 1000,
    dateUpdated: T0 + n * 1000,
    participants: [seat(n)],
    ...over,
  };
}

// PostgreSQL joins when the run has a server (otherwise one line at start says it is skipped).
const kinds: Array<[string, () => Store | Promise<Store>]> = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => openSqliteStore({ dir: tempDir() })],
  ...(PG_URL ? [['postgres', () => openScratchPostgres()] as [string, () => Promise<Store>]] : []),
];

const sids = (rooms: ConferenceRecord[]) => rooms.map((r) => r.sid);
const q = (over: Partial<ConferenceQuery> = {}): ConferenceQuery => ({
  accountSid: ACCOUNT_A,
  offset: 0,
  limit: 50,
  ...over,
});

describe.each(kinds)('%s store: conference rooms', (_name, open) => {
  it('replaces a room on put, keeps its participants and hides it from other accounts', async () => {
    const s = await open();
    await s.conferences.put(room(1, { status: 'init' }));
    const later = room(1, { participants: [seat(1, { muted: true }), seat(2)], dateUpdated: T0 + 5000 });
    await s.conferences.put(later);
    expect(await s.conferences.get(ACCOUNT_A, room(1).sid)).toEqual(later);
    expect(await s.conferences.get(ACCOUNT_B, room(1).sid)).toBeUndefined();
    expect(await s.conferences.get(ACCOUNT_A, room(9).sid)).toBeUndefined();
    expect((await s.conferences.list(q({ accountSid: ACCOUNT_B }))).total).toBe(0);
    await s.close();
  });

  it('lists rooms in creation order, ties by sid, page by page and after a sid', async () => {
    const s = await open();
    // Rooms 1..6 and one of account B; 4 and 5 opened at the same instant.
    for (const n of [6, 3, 5, 1, 4, 2]) {
      await s.conferences.put(room(n, n === 4 ? { dateCreated: room(5).dateCreated } : {}));
    }
    await s.conferences.put(room(7, { accountSid: ACCOUNT_B }));
    const all = await s.conferences.list(q());
    expect(sids(all.items)).toEqual([1, 2, 3, 4, 5, 6].map((n) => room(n).sid));
    expect(all.total).toBe(6);
    const second = await s.conferences.list(q({ offset: 2, limit: 2 }));
    expect(sids(second.items)).toEqual([room(3).sid, room(4).sid]);
    expect(second).toMatchObject({ total: 6, offset: 2 });
    const after = await s.conferences.list(q({ offset: 0, limit: 2, afterSid: room(4).sid }));
    expect(sids(after.items)).toEqual([room(5).sid, room(6).sid]);
    expect(after.offset).toBe(4);
    // A sid that names no room of the list leaves the offset in force.
    const unknown = await s.conferences.list(q({ offset: 1, limit: 1, afterSid: room(7).sid }));
    expect(sids(unknown.items)).toEqual([room(2).sid]);
    await s.close();
  });

  it('filters rooms by name, status, creation and update time', async () => {
    const s = await open();
    await s.conferences.put(room(1));
    await s.conferences.put(room(2, { status: 'completed', participants: [], dateUpdated: T0 + 60_000 }));
    await s.conferences.put(room(4, { status: 'init' }));
    await s.conferences.put(room(5, { accountSid: ACCOUNT_B }));
    const list = async (over: Partial<ConferenceQuery>) => sids((await s.conferences.list(q(over))).items);
    expect(await list({ friendlyName: 'room-1' })).toEqual([room(1).sid, room(4).sid]);
    expect(await list({ friendlyName: 'room-1', status: 'init' })).toEqual([room(4).sid]);
    expect(await list({ status: 'completed' })).toEqual([room(2).sid]);
    expect(await list({ createdFrom: T0 + 2000, createdTo: T0 + 4000 })).toEqual([room(2).sid, room(4).sid]);
    expect(await list({ updatedFrom: T0 + 10_000 })).toEqual([room(2).sid]);
    expect(await list({ updatedTo: T0 + 4000 })).toEqual([room(1).sid, room(4).sid]);
    await s.close();
  });

  it('lists the rooms of every account that have not ended', async () => {
    const s = await open();
    await s.conferences.put(room(1));
    await s.conferences.put(room(2, { status: 'completed', participants: [] }));
    await s.conferences.put(room(3, { status: 'init', accountSid: ACCOUNT_B }));
    expect(sids(await s.conferences.listLive())).toEqual([room(1).sid, room(3).sid]);
    await s.close();
  });

  it('persists the rooms the engine reports through the record sink', async () => {
    const s = await open();
    const sink = createStoreSink(s);
    sink.conference?.(room(1, { status: 'init' }));
    sink.conference?.(room(1, { participants: [seat(1), seat(2)] }));
    await sink.settled();
    expect((await s.conferences.get(ACCOUNT_A, room(1).sid))?.participants.map((p) => p.callSid)).toEqual([
      call(1).sid,
      call(2).sid,
    ]);
    await s.close();
  });

  it('ends the rooms a stopped node ran, whole, and leaves the others', async () => {
    const s = await open();
    await s.conferences.put(room(1, { participants: [seat(1), seat(2)] }));
    await s.conferences.put(room(3, { participants: [seat(3), seat(4)] }));
    const ended = await closeInterruptedRooms(s, T0 + 99_000, [
      room(3, { participants: [seat(3), seat(4)] }),
    ]);
    expect(sids(ended)).toEqual([room(3).sid]);
    expect(await s.conferences.get(ACCOUNT_A, room(3).sid)).toMatchObject({
      status: 'completed',
      participants: [],
      dateUpdated: T0 + 99_000,
    });
    expect(await s.conferences.get(ACCOUNT_A, room(1).sid)).toEqual(
      room(1, { participants: [seat(1), seat(2)] }),
    );
    await s.close();
  });

  it('ends every live room when the calls of the whole store are closed', async () => {
    const s = await open();
    await s.calls.put(call(1, { status: 'in-progress', endTime: undefined, duration: undefined }));
    await s.conferences.put(room(1));
    await s.conferences.put(room(2, { status: 'init', participants: [] }));
    const closed = await closeInterruptedCalls(s, T0 + 50_000, sequentialSids(1));
    expect(closed.map((c) => c.sid)).toEqual([call(1).sid]);
    expect(await s.conferences.listLive()).toEqual([]);
    expect((await s.conferences.get(ACCOUNT_A, room(2).sid))?.status).toBe('completed');
    await s.close();
  });

  it('answers room queries like a plain filter over the records (property)', async () => {
    const s = await open();
    const statuses: ConferenceStatus[] = ['init', 'in-progress', 'completed'];
    const rooms = Array.from({ length: 24 }, (_, i) =>
      room(i + 1, {
        accountSid: i % 5 === 0 ? ACCOUNT_B : ACCOUNT_A,
        status: statuses[i % 3],
        dateCreated: T0 + (i % 6) * 1000,
      }),
    );
    for (const r of rooms) await s.conferences.put(r);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          friendlyName: fc.option(fc.constantFrom('room-0', 'room-1', 'room-9'), { nil: undefined }),
          status: fc.option(fc.constantFrom(...statuses), { nil: undefined }),
          createdFrom: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
          offset: fc.integer({ min: 0, max: 25 }),
          limit: fc.integer({ min: 0, max: 10 }),
          after: fc.option(fc.integer({ min: 1, max: 26 }), { nil: undefined }),
        }),
        async (p) => {
          const query = q({
            friendlyName: p.friendlyName,
            status: p.status,
            createdFrom: p.createdFrom === undefined ? undefined : T0 + p.createdFrom * 1000,
            offset: p.offset,
            limit: p.limit,
            afterSid: p.after === undefined ? undefined : room(p.after).sid,
          });
          const matching = rooms
            .filter(
              (r) =>
                r.accountSid === ACCOUNT_A &&
                (query.friendlyName === undefined || r.friendlyName === query.friendlyName) &&
                (query.status === undefined || r.status === query.status) &&
                (query.createdFrom === undefined || r.dateCreated >= query.createdFrom),
            )
            .sort((a, b) => a.dateCreated - b.dateCreated || (a.sid < b.sid ? -1 : 1));
          const anchor = matching.findIndex((r) => r.sid === query.afterSid);
          const offset = anchor < 0 ? query.offset : anchor + 1;
          const page = await s.conferences.list(query);
          expect(page.total).toBe(matching.length);
          expect(page.offset).toBe(offset);
          expect(sids(page.items)).toEqual(sids(matching.slice(offset, offset + query.limit)));
        },
      ),
      { numRuns: 40, seed: 11 },
    );
    await s.close();
  });
});

describe('conference rooms left live by a stopped server', () => {
  it('are ended when SQLite reopens the data directory', async () => {
    const dir = tempDir();
    const first = await openSqliteStore({ dir });
    await first.calls.put(call(1, { status: 'in-progress', endTime: undefined, duration: undefined }));
    await first.conferences.put(room(1));
    await first.close();
    const again = await openSqliteStore({ dir, now: () => T0 + 90_000 });
    expect(again.interruptedCalls).toEqual([call(1).sid]);
    expect(await again.conferences.get(ACCOUNT_A, room(1).sid)).toMatchObject({
      status: 'completed',
      participants: [],
      dateUpdated: T0 + 90_000,
    });
    await again.close();
  });

  it.skipIf(!PG_URL)('are ended when a PostgreSQL node restarts, those of other nodes stay', async () => {
    const schema = uniqueName('s');
    const live = { status: 'in-progress' as const, endTime: undefined, duration: undefined };
    const a = await openScratchPostgres({ schema, nodeId: 'node-a' });
    const b = await openScratchPostgres({ schema, nodeId: 'node-b' });
    await a.calls.put(call(1, live));
    await a.conferences.put(room(1));
    await b.calls.put(call(2, live));
    await b.conferences.put(room(2));
    await a.close();
    const again = await openScratchPostgres({ schema, nodeId: 'node-a' });
    expect(again.interruptedCalls).toEqual([call(1).sid]);
    expect((await again.conferences.get(ACCOUNT_A, room(1).sid))?.status).toBe('completed');
    expect(await again.conferences.get(ACCOUNT_A, room(2).sid)).toEqual(room(2));
    await again.close();
    await b.close();
  });
});
