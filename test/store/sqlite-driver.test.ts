import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// In a fresh process: is better-sqlite3 loaded after importing the package and using the memory
// store, and after opening a SQLite store?
const SCRIPT = `
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('better-sqlite3'));
const m = await import('./src/index.ts');
m.createApp({ store: m.createMemoryStore(), baseUrl: 'http://127.0.0.1' });
const before = loaded();
const store = await m.openSqliteStore({ dir: mkdtempSync(join(tmpdir(), 'rcml-driver-')) });
await store.close?.();
console.log(JSON.stringify([before, loaded()]));
`;

it('better-sqlite3 (an optional peer dependency) loads only when a SQLite store opens', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual([false, true]);
});
