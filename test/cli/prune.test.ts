import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scheduleRetention } from '../../src/cli/commands/serve-ops.js';
import { createProgram } from '../../src/cli/program.js';
import { lockDataDirectory } from '../../src/store/sqlite/lock.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { ACCOUNT_A, account, call, recording, wav } from '../store/fixtures.js';

const DAY = 86_400_000;
const dirs: string[] = [];
afterEach(() => {
  process.exitCode = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs `rcml` in process; returns what it wrote and its exit status. */
async function run(args: string[]): Promise<{ out: string; err: string; exit: number | undefined }> {
  let out = '';
  let err = '';
  const program = createProgram();
  for (const command of [program, ...program.commands]) {
    command.configureOutput({
      writeOut: (s) => {
        out += s;
      },
      writeErr: (s) => {
        err += s;
      },
    });
  }
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out += String(s);
    return true;
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { out, err, exit: process.exitCode === undefined ? undefined : Number(process.exitCode) };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { out, err, exit: error.exitCode };
  } finally {
    stdout.mockRestore();
  }
}

/** A data directory with two calls and recordings: one 40 days old, one a day old. */
async function dataDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-prune-'));
  dirs.push(dir);
  const store = await openSqliteStore({ dir });
  await store.accounts.put(account(ACCOUNT_A));
  for (const [n, age] of [
    [1, 40 * DAY],
    [2, DAY],
  ] as const) {
    await store.calls.put(call(n, { dateCreated: Date.now() - age }));
    await store.recordings.put(recording(n, { dateCreated: Date.now() - age }), wav(4));
  }
  await store.close();
  return dir;
}

const wavOf = (dir: string, n: number) => join(dir, 'recordings', ACCOUNT_A, `${recording(n).sid}.wav`);

describe('rcml prune', () => {
  it('deletes records older than the age, rows and WAV files together', async () => {
    const dir = await dataDir();
    const { out, exit } = await run(['prune', '--data', dir, '--older-than', '30d']);
    expect(exit).toBeUndefined();
    expect(out).toMatch(
      /^removed 1 call\(s\), 1 recording\(s\) with their audio, 0 gather\(s\), 0 notification\(s\) and 0 ended conference\(s\) created before \d{4}-/,
    );
    expect(existsSync(wavOf(dir, 1))).toBe(false);
    expect(existsSync(wavOf(dir, 2))).toBe(true);
    const store = await openSqliteStore({ dir });
    expect(await store.calls.get(ACCOUNT_A, call(1).sid)).toBeUndefined();
    expect(await store.calls.get(ACCOUNT_A, call(2).sid)).toBeDefined();
    expect(await store.recordings.get(ACCOUNT_A, recording(1).sid)).toBeUndefined();
    await store.close();
  });

  it('refuses a bad age, a missing store and two stores as usage errors', async () => {
    const dir = await dataDir();
    const badAge = await run(['prune', '--data', dir, '--older-than', '30']);
    // commander's own refusal (the rcml binary turns it into exit status 2).
    expect(badAge.exit).toBe(1);
    expect(badAge.err).toContain('expected an age such as 30d');
    const noAge = await run(['prune', '--data', dir]);
    expect(noAge.exit).toBe(2);
    expect(noAge.err).toContain('--older-than is required');
    const empty = mkdtempSync(join(tmpdir(), 'rcml-prune-empty-'));
    dirs.push(empty);
    const missing = await run(['prune', '--data', empty, '--older-than', '1d']);
    expect(missing.exit).toBe(2);
    expect(missing.err).toContain('no rcml.sqlite there');
    const both = await run(['prune', '--data', dir, '--database', 'postgres://x/y', '--older-than', '1d']);
    expect(both.exit).toBe(2);
    expect(both.err).toContain('give --data or --database');
    expect(existsSync(wavOf(dir, 1))).toBe(true);
  });

  it('refuses a data directory a server holds', async () => {
    const dir = await dataDir();
    const lock = lockDataDirectory(dir);
    try {
      const held = await run(['prune', '--data', dir, '--older-than', '30d']);
      expect(held.exit).toBe(2);
      expect(held.err).toContain(`data directory ${dir} is in use by another process (pid ${process.pid})`);
      expect(existsSync(wavOf(dir, 1))).toBe(true);
    } finally {
      lock.release();
    }
    expect((await run(['prune', '--data', dir, '--older-than', '30d'])).exit).toBeUndefined();
    expect(existsSync(wavOf(dir, 1))).toBe(false);
  });
});

describe('rcml serve --retain-days', () => {
  it('prunes at start and on every interval, one run at a time, and stops', async () => {
    const dir = await dataDir();
    const store = await openSqliteStore({ dir });
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const retention = scheduleRetention(store, 30, log, { everyMs: 3_600_000 });
    await retention.running;
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'retention', calls: 1, recordings: 1, level: 30 }),
    );
    expect(existsSync(wavOf(dir, 1))).toBe(false);
    await retention.stop();
    expect(retention.running).toBeUndefined();
    await store.close();
  });
});
