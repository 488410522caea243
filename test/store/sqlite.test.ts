import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { authTokenMatches, rotateAuthToken } from '../../src/store/credentials.js';
import { INTERRUPTED_CALL_CODE } from '../../src/store/recover.js';
import { sequentialSids } from '../../src/store/sid.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { ACCOUNT_A, account, call, recording, tokenOf, wav } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-sqlite-'));
  dirs.push(d);
  return d;
}

describe('SQLite store', () => {
  it('reads an account as another connection last wrote it, and as its own writes left it', async () => {
    const dir = tempDir();
    const server = await openSqliteStore({ dir });
    const tool = await openSqliteStore({ dir, closeInterrupted: false });
    try {
      await server.accounts.put(account(ACCOUNT_A));
      expect((await server.accounts.get(ACCOUNT_A))?.friendlyName).toBe('test');
      // A token rotated by a tool beside the running server applies to its next read.
      const { account: rotated, authToken } = await rotateAuthToken(tool.accounts, ACCOUNT_A, {
        newSigningKey: true,
      });
      const seen = await server.accounts.get(ACCOUNT_A);
      expect(seen?.signingKey).toBe(rotated.signingKey);
      expect(authTokenMatches(seen, authToken)).toBe(true);
      expect(authTokenMatches(seen, tokenOf(ACCOUNT_A))).toBe(false);
      await server.accounts.put({ ...rotated, friendlyName: 'renamed' });
      expect((await server.accounts.get(ACCOUNT_A))?.friendlyName).toBe('renamed');
      expect((await tool.accounts.get(ACCOUNT_A))?.friendlyName).toBe('renamed');
      // A record read is the caller's own: changing it changes nothing stored.
      (seen as { friendlyName: string }).friendlyName = 'changed by a caller';
      expect((await server.accounts.get(ACCOUNT_A))?.friendlyName).toBe('renamed');
      expect(await server.accounts.get(`AC${'f'.repeat(32)}`)).toBeUndefined();
    } finally {
      await tool.close();
      await server.close();
    }
  });

  it('uses WAL and records its schema migrations once', async () => {
    const dir = tempDir();
    await (await openSqliteStore({ dir })).close();
    const s = await openSqliteStore({ dir });
    await s.close();
    const db = new Database(join(dir, 'rcml.sqlite'), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version FROM migrations ORDER BY version').all()).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version })),
    );
    db.close();
  });

  it('refuses a database from a newer schema with a clear error', async () => {
    const dir = tempDir();
    await (await openSqliteStore({ dir })).close();
    const db = new Database(join(dir, 'rcml.sqlite'));
    db.prepare('INSERT INTO migrations VALUES (99, ?, 0)').run('future');
    db.close();
    await expect(openSqliteStore({ dir })).rejects.toThrow(/schema version 99 is newer/);
  });

  it('keeps records and WAV files across a restart', async () => {
    const dir = tempDir();
    const s = await openSqliteStore({ dir });
    await s.accounts.put(account(ACCOUNT_A));
    await s.calls.put(call(1));
    await s.recordings.put(recording(1), wav(10));
    await s.applications.put({
      sid: `AP${'1'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      friendlyName: 'ivr',
      kind: 'voice',
      voiceCallerIdLookup: false,
      rcmlUrl: '/visual-designer/services/apps/AP/controller',
      apiVersion: '2012-04-24',
      dateCreated: 1,
      dateUpdated: 1,
    });
    await s.close();
    expect(existsSync(join(dir, 'recordings', ACCOUNT_A, `${recording(1).sid}.wav`))).toBe(true);
    const again = await openSqliteStore({ dir });
    expect(await again.accounts.get(ACCOUNT_A)).toEqual(account(ACCOUNT_A));
    expect(await again.calls.get(ACCOUNT_A, call(1).sid)).toEqual(call(1));
    expect(await again.recordings.wav(ACCOUNT_A, recording(1).sid)).toEqual(wav(10));
    expect((await again.applications.get(ACCOUNT_A, `AP${'1'.repeat(32)}`))?.friendlyName).toBe('ivr');
    expect(again.interruptedCalls).toEqual([]);
    await again.close();
  });

  it('closes calls left live: answered -> completed with duration, others -> failed, each with a notification', async () => {
    const dir = tempDir();
    const s = await openSqliteStore({ dir });
    const answered = call(1, {
      status: 'in-progress',
      startTime: 10_000,
      endTime: undefined,
      duration: undefined,
    });
    const ringing = call(2, {
      status: 'ringing',
      startTime: undefined,
      endTime: undefined,
      duration: undefined,
    });
    await s.calls.putMany([answered, ringing, call(3)]);
    await s.close();
    const again = await openSqliteStore({ dir, now: () => 20_100, sids: sequentialSids() });
    expect(again.interruptedCalls).toEqual([answered.sid, ringing.sid]);
    expect(await again.calls.get(ACCOUNT_A, answered.sid)).toMatchObject({
      status: 'completed',
      endTime: 20_100,
      duration: 11,
    });
    expect(await again.calls.get(ACCOUNT_A, ringing.sid)).toMatchObject({
      status: 'failed',
      endTime: 20_100,
      duration: 0,
    });
    expect(await again.calls.get(ACCOUNT_A, call(3).sid)).toEqual(call(3));
    const notes = await again.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 10 });
    expect(notes.items.map((n) => [n.callSid, n.code])).toEqual([
      [answered.sid, INTERRUPTED_CALL_CODE],
      [ringing.sid, INTERRUPTED_CALL_CODE],
    ]);
    expect(await again.calls.listLive()).toEqual([]);
    await again.close();
  });

  it('loses nothing committed when the process is killed mid-run', async () => {
    const dir = tempDir();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'crash-writer.ts'), dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const committed: string[] = [];
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        committed.push(...lines);
        if (committed.length >= 300 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`writer exited early: ${stderr}`)));
    });
    await new Promise((resolve) => child.once('close', resolve));
    const s = await openSqliteStore({ dir });
    for (const sid of committed) expect((await s.calls.get(ACCOUNT_A, sid))?.sid).toBe(sid);
    // Every call the writer left live was closed on reopen.
    expect(await s.calls.listLive()).toEqual([]);
    expect(s.interruptedCalls.length).toBeGreaterThanOrEqual(150);
    await s.close();
  });
});
