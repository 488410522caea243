import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  authTokenMatches,
  hashAuthToken,
  newAccount,
  rotateAuthToken,
  upgradeAccountRecord,
} from '../../src/store/credentials.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { PG_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/open.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { PG_URL, uniqueName } from '../support/services.js';
import { ACCOUNT_A, ACCOUNT_B } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An account record as stored before tokens were hashed. */
const legacy = (sid: string, authToken: string, dateCreated: number) => ({
  sid,
  authToken,
  friendlyName: `legacy ${sid.slice(-1)}`,
  dateCreated,
  dateUpdated: dateCreated,
});

describe('auth token hashes', () => {
  it('match only the token they were made of, and differ for the same token', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8 }), fc.string({ minLength: 1 }), (token, other) => {
        const { account } = newAccount(ACCOUNT_A, { friendlyName: 'a', now: 0, authToken: token });
        expect(account.authTokenHash).not.toContain(token);
        expect(authTokenMatches(account, token)).toBe(true);
        expect(authTokenMatches(account, other)).toBe(token === other);
        // Once a token matched, later checks (compared with it, not hashed) answer the same.
        expect(authTokenMatches(account, token)).toBe(true);
        expect(authTokenMatches(account, other)).toBe(token === other);
        expect(authTokenMatches(undefined, token)).toBe(false);
        expect(hashAuthToken(token)).not.toBe(account.authTokenHash);
      }),
      { numRuns: 50 },
    );
  });

  it('refuse a missing account, an unknown scheme and a damaged hash', () => {
    const { account, authToken } = newAccount(ACCOUNT_A, { friendlyName: 'a', now: 0 });
    expect(authToken).toMatch(/^[0-9a-f]{32}$/);
    expect(account.signingKey).toMatch(/^[0-9a-f]{32}$/);
    expect(account.signingKey).not.toBe(authToken);
    expect(authTokenMatches(undefined, authToken)).toBe(false);
    const [, salt, digest] = account.authTokenHash.split(':');
    expect(authTokenMatches({ ...account, authTokenHash: `sha1:${salt}:${digest}` }, authToken)).toBe(false);
    expect(authTokenMatches({ ...account, authTokenHash: `hmac-sha256:${salt}` }, authToken)).toBe(false);
    expect(authTokenMatches({ ...account, authTokenHash: '' }, authToken)).toBe(false);
  });

  it('rotate: the old token stops matching, the new one matches, the signing key stays unless asked', async () => {
    const store = createMemoryStore();
    const { account, authToken } = newAccount(ACCOUNT_A, { friendlyName: 'a', now: 0 });
    await store.accounts.put(account);
    const rotated = await rotateAuthToken(store.accounts, ACCOUNT_A, { now: () => 5 });
    const stored = await store.accounts.get(ACCOUNT_A);
    expect(authTokenMatches(stored, authToken)).toBe(false);
    expect(authTokenMatches(stored, rotated.authToken)).toBe(true);
    expect(rotated.signingKey).toBe(account.signingKey);
    expect(stored?.dateUpdated).toBe(5);
    const again = await rotateAuthToken(store.accounts, ACCOUNT_A, { newSigningKey: true });
    expect(again.signingKey).not.toBe(account.signingKey);
    expect((await store.accounts.get(ACCOUNT_A))?.signingKey).toBe(again.signingKey);
    await expect(rotateAuthToken(store.accounts, ACCOUNT_B)).rejects.toThrow(`no account ${ACCOUNT_B}`);
  });

  it('upgrade a record stored in clear, and leave a current one alone', () => {
    const upgraded = upgradeAccountRecord(legacy(ACCOUNT_A, 'old-token-1', 1));
    expect(upgraded).not.toHaveProperty('authToken');
    expect(authTokenMatches(upgraded, 'old-token-1')).toBe(true);
    expect(upgraded.signingKey).toMatch(/^[0-9a-f]{32}$/);
    expect(upgradeAccountRecord({ ...upgraded })).toEqual(upgraded);
  });
});

describe('migrating a store whose tokens are in clear', () => {
  it('SQLite: keeps every account, their tokens work, and no token is left in the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-credentials-'));
    dirs.push(dir);
    const file = join(dir, 'rcml.sqlite');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const m of MIGRATIONS.filter((step) => step.version <= 2)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO migrations VALUES (?, ?, 0)').run(m.version, m.name);
    }
    const insert = db.prepare('INSERT INTO accounts (sid, date_created, data) VALUES (?, ?, ?)');
    insert.run(ACCOUNT_A, 1, JSON.stringify(legacy(ACCOUNT_A, 'clear-token-a', 1)));
    insert.run(ACCOUNT_B, 2, JSON.stringify(legacy(ACCOUNT_B, 'clear-token-b', 2)));
    db.close();

    const store = await openSqliteStore({ dir });
    const accounts = await store.accounts.list();
    expect(accounts.map((a) => [a.sid, a.friendlyName, a.dateCreated])).toEqual([
      [ACCOUNT_A, 'legacy a', 1],
      [ACCOUNT_B, 'legacy b', 2],
    ]);
    expect(authTokenMatches(accounts[0], 'clear-token-a')).toBe(true);
    expect(authTokenMatches(accounts[1], 'clear-token-b')).toBe(true);
    expect(authTokenMatches(accounts[0], 'clear-token-b')).toBe(false);
    expect(accounts[0].signingKey).not.toBe(accounts[1].signingKey);
    await store.close();
    // Checkpointed on close: the old values are in neither the database nor its log.
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain('clear-token-a');
    expect(bytes).not.toContain('"authToken"');
  });

  it.skipIf(!PG_URL)('PostgreSQL: keeps every account and their tokens work', async () => {
    const schema = uniqueName('s');
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}`);
      await client.query(
        'CREATE TABLE rcml_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
      );
      await client.query(PG_MIGRATIONS[0].sql);
      await client.query('INSERT INTO rcml_migrations VALUES (1, $1, 0)', [PG_MIGRATIONS[0].name]);
      for (const [sid, token, t] of [
        [ACCOUNT_A, 'clear-token-a', 1],
        [ACCOUNT_B, 'clear-token-b', 2],
      ] as const) {
        await client.query('INSERT INTO accounts (sid, date_created, data) VALUES ($1, $2, $3)', [
          sid,
          t,
          JSON.stringify(legacy(sid, token, t)),
        ]);
      }
    } finally {
      await client.end();
    }
    const store = await openPostgresStore({ url: PG_URL, schema, poolSize: 2 });
    try {
      const accounts = await store.accounts.list();
      expect(accounts.map((a) => a.sid)).toEqual([ACCOUNT_A, ACCOUNT_B]);
      expect(authTokenMatches(accounts[0], 'clear-token-a')).toBe(true);
      expect(authTokenMatches(accounts[1], 'clear-token-b')).toBe(true);
      const { rows } = await store.pool.query<{ data: string }>(`SELECT data FROM ${schema}.accounts`);
      for (const row of rows) expect(row.data).not.toMatch(/clear-token|"authToken"/);
    } finally {
      await store.close();
    }
  });
});
