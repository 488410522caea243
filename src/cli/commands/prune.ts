import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { openPostgresStore } from '../../store/postgres/open.js';
import { type PruneCounts, parseAge, pruneOlderThan } from '../../store/retention.js';
import {
  type DataDirectoryLock,
  DataDirectoryLockedError,
  lockDataDirectory,
} from '../../store/sqlite/lock.js';
import { openSqliteStore } from '../../store/sqlite/open.js';
import { envOption } from '../env-option.js';

function age(value: string): number {
  const ms = parseAge(value);
  if (ms === undefined) throw new InvalidArgumentError('expected an age such as 30d, 12h, 90m or 45s');
  return ms;
}

function batchSize(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) {
    throw new InvalidArgumentError('expected a whole number 1-10000');
  }
  return Number(value);
}

/** One line saying what was removed. */
export function pruneSummary(counts: PruneCounts, before: number): string {
  return (
    `removed ${counts.calls} call(s), ${counts.recordings} recording(s) with their audio, ` +
    `${counts.gathers} gather(s), ${counts.notifications} notification(s) and ` +
    `${counts.conferences} ended conference(s) created before ` +
    `${new Date(before).toISOString()}\n`
  );
}

interface PruneOptions {
  data?: string;
  database?: string;
  olderThan: number;
  batchSize: number;
}

/** Registers `rcml prune`: retention run offline on a data directory or a PostgreSQL database. */
export function registerPrune(program: Command): void {
  program
    .command('prune')
    .description(
      'delete calls, recordings (rows and WAV files), gathers, notifications and ended conferences older than an age',
    )
    .addOption(envOption('--data <dir>', 'data directory of the SQLite store'))
    .addOption(envOption('--database <url>', 'or a PostgreSQL store (postgres://...)', 'RCML_DATABASE_URL'))
    .addOption(
      envOption('--older-than <age>', 'age of the records to delete: 30d, 12h, 90m, 45s').argParser(age),
    )
    .addOption(
      envOption('--batch-size <n>', 'records of each kind deleted per transaction')
        .argParser(batchSize)
        .default(500),
    )
    .action(async (options: PruneOptions, command: Command) => {
      if (options.olderThan === undefined) command.error('error: --older-than is required', { exitCode: 2 });
      if ((options.data === undefined) === (options.database === undefined)) {
        command.error('error: give --data or --database (one of them)', { exitCode: 2 });
      }
      if (options.data !== undefined && !existsSync(join(options.data, 'rcml.sqlite'))) {
        command.error(`error: --data ${options.data}: no rcml.sqlite there`, { exitCode: 2 });
      }
      if (options.database !== undefined && !/^postgres(ql)?:\/\//.test(options.database)) {
        command.error('error: --database must be a postgres:// URL', { exitCode: 2 });
      }
      // Offline means alone: a data directory a server holds is refused, not pruned under it.
      let lock: DataDirectoryLock | undefined;
      if (options.data !== undefined) {
        try {
          lock = lockDataDirectory(options.data);
        } catch (err) {
          if (!(err instanceof DataDirectoryLockedError)) throw err;
          command.error(`error: ${err.message}: stop it first, or run it with --retain-days`, {
            exitCode: 2,
          });
        }
      }
      try {
        const store =
          options.data !== undefined
            ? await openSqliteStore({ dir: options.data, closeInterrupted: false })
            : await openPostgresStore({ url: options.database as string });
        const before = Date.now() - options.olderThan;
        try {
          const counts = await pruneOlderThan(store, before, { batchSize: options.batchSize });
          process.stdout.write(pruneSummary(counts, before));
        } finally {
          await store.close();
        }
      } finally {
        lock?.release();
      }
    });
}
