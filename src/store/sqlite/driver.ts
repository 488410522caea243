import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

let driver: typeof Database | undefined;

/**
 * better-sqlite3, loaded on first use: it is an optional peer dependency, so an application
 * on the memory or PostgreSQL store installs no native module.
 */
export function sqliteDriver(): typeof Database {
  if (driver) return driver;
  try {
    driver = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (err) {
    throw new Error(
      'the SQLite stores need the better-sqlite3 package (an optional peer dependency of rcml-engine): npm install better-sqlite3',
      { cause: err },
    );
  }
  return driver;
}

/** Opens (or creates) a SQLite database file. */
export function openDatabase(file: string, options?: Database.Options): Database.Database {
  const Driver = sqliteDriver();
  return new Driver(file, options);
}
