import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { compareFields, fieldsMatch, fieldsOf } from '../../src/store/enterprise/fields.js';
import { createMemoryEnterpriseStore } from '../../src/store/enterprise/memory.js';
import { DuplicateRecordError, type EnterpriseStore } from '../../src/store/enterprise/ports.js';
import { postgresEnterpriseStore } from '../../src/store/enterprise/postgres.js';
import { openSqliteEnterpriseStore } from '../../src/store/enterprise/sqlite.js';
import type {
  AaUserRecord,
  ActivityRecord,
  SearchQuery,
  TaskQueueRecord,
  WorkspaceRecord,
} from '../../src/store/enterprise/types.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { openScratchPostgres, PG_URL } from '../support/services.js';
import { ACCOUNT_A, ACCOUNT_B } from './fixtures.js';

const runs = process.env.RCML_DEEP ? 300 : 40;
const dirs: string[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'rcml-ent-'));
  dirs.push(d);
  return d;
};

const user = (n: number, over: Partial<AaUserRecord> = {}): AaUserRecord => ({
  sid: `RCS${n.toString(16).padStart(32, '0')}`,
  accountSid: ACCOUNT_A,
  enterpriseSid: 'EN1',
  name: `User ${n}`,
  emailId: `u${n}@acme.test`,
  role: 'AA_ADMIN',
  status: 'ACTIVE',
  passwordHash: '',
  accountEmail: '',
  dateCreated: 1000 * n,
  dateUpdated: 1000 * n,
  ...over,
});
const workspace = (sid: string, name: string): WorkspaceRecord => ({
  sid,
  accountSid: ACCOUNT_A,
  enterpriseSid: 'EN1',
  name,
  defaultActivitySid: 'AT1',
  timeoutActivitySid: 'AT1',
  prioritizeQueueOrder: 'FIFO',
  multiTaskEnabled: false,
  accountEmail: '',
  dateCreated: 1,
  dateUpdated: 1,
});
const activity = (sid: string, workspaceSid: string, name: string): ActivityRecord => ({
  sid,
  accountSid: ACCOUNT_A,
  enterpriseSid: 'EN1',
  workspaceSid,
  name,
  available: false,
  dateCreated: 1,
  dateUpdated: 1,
});
const queue = (sid: string, workspaceSid: string, name: string): TaskQueueRecord => ({
  sid,
  accountSid: ACCOUNT_A,
  enterpriseSid: 'EN1',
  workspaceSid,
  name,
  assignmentActivitySid: '',
  reservationActivitySid: '',
  targetWorkers: '1==1',
  taskOrder: 'FIFO',
  maxReservedWorkers: 1,
  accountEmail: '',
  dateCreated: 1,
  dateUpdated: 1,
});

async function postgres(): Promise<EnterpriseStore> {
  const platform = await openScratchPostgres();
  closers.push(() => platform.close());
  return postgresEnterpriseStore(platform.connection);
}

type Open = () => EnterpriseStore | Promise<EnterpriseStore>;
// PostgreSQL joins when the run has a server (otherwise one line at start says it is skipped).
const persistent: Array<[string, Open]> = [
  ['sqlite', () => openSqliteEnterpriseStore({ dir: tempDir() })],
  ...(PG_URL ? [['postgres', postgres] as [string, Open]] : []),
];
const implementations: Array<[string, Open]> = [['memory', createMemoryEnterpriseStore], ...persistent];

describe.each(implementations)('%s enterprise store', (_, open) => {
  it('stores, reads through the owning account only, and copies records', async () => {
    const store = await open();
    const u = user(1);
    await store.users.put(u);
    u.name = 'changed';
    expect((await store.users.get(ACCOUNT_A, user(1).sid))?.name).toBe('User 1');
    expect(await store.users.get(ACCOUNT_B, user(1).sid)).toBeUndefined();
    expect(await store.announcements.get(ACCOUNT_A, user(1).sid)).toBeUndefined();
    await store.users.put({ ...user(1), status: 'DELETED' });
    expect((await store.users.get(ACCOUNT_A, user(1).sid))?.status).toBe('DELETED');
    await store.close();
  });

  it('keeps e-mails unique per account and names unique per enterprise or workspace, in any case', async () => {
    const store = await open();
    await store.users.put(user(1));
    await expect(store.users.put(user(2, { emailId: 'U1@ACME.test' }))).rejects.toBeInstanceOf(
      DuplicateRecordError,
    );
    await store.users.put(user(3, { emailId: 'u1@acme.test', accountSid: ACCOUNT_B }));
    // Signing in finds a user by e-mail in any case, across accounts.
    const found = await store.users.withEmail('U1@Acme.Test');
    expect(found.map((u) => [u.sid, u.accountSid]).sort()).toEqual(
      [
        [user(1).sid, ACCOUNT_A],
        [user(3).sid, ACCOUNT_B],
      ].sort(),
    );
    expect(await store.users.withEmail('u1@acme')).toEqual([]);
    await store.workspaces.create(workspace('WS1', 'Sales'), [activity('AT1', 'WS1', 'Offline')]);
    await expect(store.workspaces.create(workspace('WS2', 'sales'), [])).rejects.toBeInstanceOf(
      DuplicateRecordError,
    );
    // A refused create leaves nothing behind.
    await expect(
      store.workspaces.create(workspace('WS3', 'Support'), [
        activity('AT2', 'WS3', 'A'),
        activity('AT3', 'WS3', 'a'),
      ]),
    ).rejects.toBeInstanceOf(DuplicateRecordError);
    expect(await store.workspaces.get(ACCOUNT_A, 'WS3')).toBeUndefined();
    await store.taskQueues.put(queue('TQ1', 'WS1', 'Q'));
    await expect(store.taskQueues.put(queue('TQ2', 'WS1', 'q'))).rejects.toBeInstanceOf(DuplicateRecordError);
    await store.taskQueues.put(queue('TQ2', 'WSX', 'q'));
    await store.close();
  });

  it('deletes a workspace with its activities and task queues', async () => {
    const store = await open();
    await store.workspaces.create(workspace('WS1', 'Sales'), [activity('AT1', 'WS1', 'Offline')]);
    await store.workspaces.create(workspace('WS2', 'Other'), [activity('AT2', 'WS2', 'Offline')]);
    await store.taskQueues.put(queue('TQ1', 'WS1', 'Q'));
    await store.taskQueues.put(queue('TQ2', 'WS2', 'Q'));
    expect(await store.workspaces.delete(ACCOUNT_B, 'WS1')).toBe(false);
    expect(await store.workspaces.delete(ACCOUNT_A, 'WS1')).toBe(true);
    expect(await store.workspaces.delete(ACCOUNT_A, 'WS1')).toBe(false);
    expect(await store.activities.get(ACCOUNT_A, 'AT1')).toBeUndefined();
    expect(await store.taskQueues.get(ACCOUNT_A, 'TQ1')).toBeUndefined();
    expect(await store.activities.get(ACCOUNT_A, 'AT2')).toBeDefined();
    expect(await store.taskQueues.get(ACCOUNT_A, 'TQ2')).toBeDefined();
    await store.close();
  });

  it('keeps announcement audio with its record', async () => {
    const store = await open();
    const record = {
      sid: 'AN1',
      accountSid: ACCOUNT_A,
      enterpriseSid: 'EN1',
      name: 'n',
      description: '',
      type: 'play' as const,
      body: '',
      language: '',
      voice: '',
      fileName: 'a.wav',
      accountEmail: '',
      dateCreated: 1,
      dateUpdated: 1,
    };
    expect(await store.announcements.audio('AN1')).toBeUndefined();
    await store.announcements.putAudio(record, new Uint8Array([1, 2, 3]));
    const got = await store.announcements.audio('AN1');
    expect(got?.record.fileName).toBe('a.wav');
    expect([...(got?.wav ?? [])]).toEqual([1, 2, 3]);
    await store.close();
  });
});

describe('sqlite enterprise store', () => {
  it('lives beside the platform tables in one database, and survives reopening', async () => {
    const dir = tempDir();
    const platform = await openSqliteStore({ dir });
    const store = openSqliteEnterpriseStore({ dir });
    await store.users.put(user(1));
    await store.close();
    await platform.close();
    const again = openSqliteEnterpriseStore({ dir });
    expect((await again.users.get(ACCOUNT_A, user(1).sid))?.emailId).toBe('u1@acme.test');
    await again.close();
    await (await openSqliteStore({ dir })).close();
  });
});

describe.each(persistent)('%s enterprise store searches', (_, open) => {
  it('answers every search as the memory store does', async () => {
    const stored = await open();
    const name = fc.constantFrom('Ann', 'ann', 'Bob', 'Émile', 'zed', 'Ánn', '', 'a_b', '100%');
    const arbUsers = fc.uniqueArray(
      fc.record({
        n: fc.integer({ min: 1, max: 60 }),
        name,
        email: fc.constantFrom('a', 'b', 'Ann', 'c'),
        role: fc.constantFrom('BG_ADMIN', 'AA_ADMIN'),
        status: fc.constantFrom('ACTIVE', 'SUSPENDED'),
        t: fc.integer({ min: 0, max: 5 }),
        account: fc.constantFrom(ACCOUNT_A, ACCOUNT_B),
        ent: fc.constantFrom('EN1', 'EN2'),
      }),
      { selector: (u) => u.n, maxLength: 25 },
    );
    const arbQuery = fc.record({
      accountSid: fc.constantFrom(ACCOUNT_A, ACCOUNT_B),
      enterpriseSid: fc.option(fc.constantFrom('EN1', 'EN2'), { nil: undefined }),
      nameContains: fc.option(fc.constantFrom('an', 'ÁN', 'b', '_', '%', ''), { nil: undefined }),
      emailContains: fc.option(fc.constantFrom('a', 'ann@', '@'), { nil: undefined }),
      role: fc.option(fc.constantFrom('BG_ADMIN', 'AA_ADMIN'), { nil: undefined }),
      status: fc.option(fc.constantFrom('ACTIVE', 'SUSPENDED'), { nil: undefined }),
      createdFrom: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
      createdTo: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
      sort: fc.option(
        fc.record({
          by: fc.constantFrom('name', 'email', 'dateCreated'),
          order: fc.constantFrom('asc', 'desc'),
        }),
        { nil: undefined },
      ),
      offset: fc.integer({ min: 0, max: 12 }),
      limit: fc.integer({ min: 1, max: 10 }),
    }) as fc.Arbitrary<SearchQuery>;
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        arbUsers,
        fc.array(arbQuery, { minLength: 1, maxLength: 5 }),
        async (specs, queries) => {
          round++;
          const memory = createMemoryEnterpriseStore();
          const records = specs.map((s) =>
            user(s.n + round * 1000, {
              name: s.name,
              emailId: `r${round}n${s.n}${s.email}@x.test`,
              role: s.role as AaUserRecord['role'],
              status: s.status as AaUserRecord['status'],
              dateCreated: s.t * 1000,
              accountSid: s.account,
              enterpriseSid: s.ent,
            }),
          );
          for (const r of records) await memory.users.put(r);
          // Together, as a server's concurrent requests would: one group commit where there is one.
          await Promise.all(records.map((r) => stored.users.put(r)));
          for (const q of queries) {
            const scoped = { ...q };
            const expected = await memory.users.search(scoped);
            // Records of earlier rounds are stored too: compare within this round's.
            const fromStore = await stored.users.search({ ...scoped, offset: 0, limit: 100_000 });
            const mine = new Set(records.map((r) => r.sid));
            const all = fromStore.items.filter((r) => mine.has(r.sid));
            expect(all.slice(q.offset, q.offset + q.limit).map((r) => r.sid)).toEqual(
              expected.items.map((r) => r.sid),
            );
            // And the memory store's answer is the reference order of the matching records.
            const reference = records
              .map((r) => ({ r, f: fieldsOf('user', r) }))
              .filter(({ f }) => fieldsMatch(f, q))
              .sort((a, b) => compareFields(q)(a.f, b.f))
              .map(({ r }) => r.sid);
            expect(expected.total).toBe(reference.length);
          }
        },
      ),
      { numRuns: runs },
    );
    await stored.close();
  });
});
