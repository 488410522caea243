import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from './driver.js';

/** A data directory is held by another process. */
export class DataDirectoryLockedError extends Error {
  constructor(
    readonly dir: string,
    /** The holder's process id, when it could be read. */
    readonly holderPid: number | undefined,
  ) {
    super(
      `data directory ${dir} is in use by another process${holderPid === undefined ? '' : ` (pid ${holderPid})`}`,
    );
    this.name = 'DataDirectoryLockedError';
  }
}

/** The lock of a data directory, held until released or until the process ends. */
export interface DataDirectoryLock {
  readonly dir: string;
  release(): void;
}

const LOCK_FILE = 'rcml.lock';
const PID_FILE = 'rcml.lock.pid';

function holderPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, PID_FILE), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the exclusive lock of a data directory: `DIR/rcml.lock`, a SQLite file held open in
 * exclusive locking mode after a write, so the operating system's advisory lock on it stays
 * with this process until `release()` or its end (a killed process releases it too; nothing
 * stale is left to clean up). The holder's pid goes to `DIR/rcml.lock.pid` for the message of
 * the next one. Throws {@link DataDirectoryLockedError}, without waiting, when another process
 * holds it.
 */
export function lockDataDirectory(dir: string): DataDirectoryLock {
  mkdirSync(dir, { recursive: true });
  const db = openDatabase(join(dir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
      throw new DataDirectoryLockedError(dir, holderPid(dir));
    }
    throw err;
  }
  writeFileSync(join(dir, PID_FILE), `${process.pid}\n`);
  let held = true;
  return {
    dir,
    release: () => {
      if (!held) return;
      held = false;
      rmSync(join(dir, PID_FILE), { force: true });
      db.close();
    },
  };
}
