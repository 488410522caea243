/**
 * The designer, Call Queuing and enterprise repositories over PostgreSQL, beyond their contract
 * suites: what several nodes opening one database see, and how their tables are versioned.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresCallQueueStore } from '../../src/store/callqueue/postgres.js';
import { postgresDesignerStore } from '../../src/store/designer/postgres.js';
import type { DesignerAppRecord } from '../../src/store/designer/types.js';
import { postgresEnterpriseStore } from '../../src/store/enterprise/postgres.js';
import { migratePostgres } from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/open.js';
import { POSTGRES_SCHEMAS } from '../../src/store/postgres/schemas.js';
import { PG_URL, uniqueName } from '../support/services.js';
import { ACCOUNT_A } from './fixtures.js';

const open = (schema: string) => openPostgresStore({ url: PG_URL, schema, poolSize: 2 });

async function query(schema: string, text: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

describe.skipIf(!PG_URL)('designer, Call Queuing and enterprise repositories on PostgreSQL', () => {
  it('are shared by every node that opens the database, media and audio bytes included', async () => {
    const schema = uniqueName('s');
    const [one, two] = await Promise.all([open(schema), open(schema)]);
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256);
    const designer = postgresDesignerStore(one.connection);
    const app: DesignerAppRecord = {
      sid: 'AP1',
      accountSid: ACCOUNT_A,
      name: 'menu',
      kind: 'voice',
      dateCreated: 1,
      dateUpdated: 1,
      state: { nodes: [] },
      settings: { logging: true, loggingRCML: false, loggingES: false },
    };
    await designer.apps.create(app);
    await designer.media.put('AP1', { filename: 'hello.wav', bytes });
    await designer.logs.append('AP1', ['line'], 1000);
    await postgresCallQueueStore(one.connection).numbers.put({
      sid: 'PN1',
      accountSid: ACCOUNT_A,
      phoneNumber: '+15550001',
      applicationUrl: 'http://app.test/',
      applicationUrlMethod: 'POST',
      byoc: false,
      revision: 1,
      dateCreated: 1,
      dateUpdated: 1,
    });
    const enterprise = postgresEnterpriseStore(one.connection);
    await enterprise.enterprises.put({
      sid: 'EN1',
      accountSid: ACCOUNT_A,
      name: 'Acme',
      accountEmail: 'admin@acme.test',
      autoAttendant: true,
      dateCreated: 1,
      dateUpdated: 1,
    });
    const announcement = {
      sid: 'AN1',
      accountSid: ACCOUNT_A,
      enterpriseSid: 'EN1',
      name: 'welcome',
      description: '',
      type: 'play' as const,
      body: '',
      language: '',
      voice: '',
      fileName: 'welcome.wav',
      accountEmail: '',
      dateCreated: 1,
      dateUpdated: 1,
    };
    await enterprise.announcements.putAudio(announcement, bytes.subarray(100, 5000));

    const designer2 = postgresDesignerStore(two.connection);
    expect((await designer2.apps.get(ACCOUNT_A, 'AP1'))?.name).toBe('menu');
    expect((await designer2.media.get('AP1', 'hello.wav'))?.bytes).toEqual(bytes);
    expect(await designer2.logs.read('AP1')).toEqual(['line']);
    expect((await postgresCallQueueStore(two.connection).numbers.findByPhoneNumber('+15550001'))?.sid).toBe(
      'PN1',
    );
    const enterprise2 = postgresEnterpriseStore(two.connection);
    expect(await enterprise2.enterprises.ownerOf('EN1')).toBe(ACCOUNT_A);
    expect(await enterprise2.announcements.audio('AN1')).toEqual({
      record: announcement,
      wav: bytes.slice(100, 5000),
    });
    // A name taken on one node is taken on the other.
    expect(await designer2.apps.create({ ...app, sid: 'AP2' })).toBe('duplicate-name');
    await Promise.all([one.close(), two.close()]);
  });

  it('versions each group of tables in its own table, once, and refuses a newer one', async () => {
    const schema = uniqueName('s');
    const stores = await Promise.all([open(schema), open(schema), open(schema)]);
    for (const s of stores) await s.close();
    for (const set of POSTGRES_SCHEMAS) {
      expect(await query(schema, `SELECT version FROM ${set.table} ORDER BY version`)).toEqual(
        set.steps.map((m) => ({ version: m.version })),
      );
    }
    await query(schema, "INSERT INTO designer_migrations VALUES (99, 'future', 0)");
    await expect(open(schema)).rejects.toThrow(/designer schema version 99 is newer/);
  });

  it('migrates an older database in one go: its data stays, the new tables appear', async () => {
    const schema = uniqueName('s');
    // A database of the platform's tables alone, as before the other groups moved to PostgreSQL.
    const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await c.connect();
    try {
      await migratePostgres(c, schema);
      await c.query('INSERT INTO accounts VALUES (\'AC1\', 1, \'{"sid":"AC1"}\')');
    } finally {
      await c.end();
    }
    const store = await open(schema);
    expect((await store.accounts.get('AC1'))?.sid).toBe('AC1');
    expect(await postgresDesignerStore(store.connection).apps.list(ACCOUNT_A)).toEqual([]);
    await store.close();
  });
});
