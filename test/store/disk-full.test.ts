/**
 * A real full disk: the SQLite store on a small tmpfs, filled up while a call runs. Needs
 * `mount -t tmpfs` (root); where the machine does not allow it, the test is skipped and says
 * why in its name.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { ensureAccount } from '../../src/api/server.js';
import type { WriteState } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';

const SID = `AC${'9'.repeat(32)}`;
const TOKEN = 'disk-full-token';
const AUTH = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${SID}`;

/** A 4 MiB tmpfs, or why there is none. */
function mountSmallDisk(): { dir: string } | { why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    rmdirSync(dir);
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return { why: `cannot mount a tmpfs here: ${stderr || (err as Error).message}` };
  }
}

/** Fills the disk: a file grown until the file system refuses, in ever smaller pieces. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  try {
    for (const size of [256 * 1024, 16 * 1024, 1024, 64]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

const disk = mountSmallDisk();
afterAll(() => {
  if (!('dir' in disk)) return;
  execFileSync('umount', [disk.dir]);
  rmdirSync(disk.dir);
});

describe('a full disk under the SQLite store', () => {
  const run = 'dir' in disk ? it : it.skip;
  const name = 'answers 503 while the disk is full, finishes the live call, and resumes without a restart';
  run('why' in disk ? `${name} (skipped: ${disk.why})` : name, async () => {
    const dir = (disk as { dir: string }).dir;
    const store = await openSqliteStore({
      dir,
      writes: { retryMs: { first: 5, max: 50 }, log: () => undefined },
    });
    await ensureAccount(store, { sid: SID, authToken: TOKEN });
    const app = await createEngineApp({ store, baseUrl: 'http://rcml.test', clock: 'virtual', seed: 11 });
    const filler = join(dir, 'filler');
    try {
      app.engine.registerHandler('http://app.test/voice', () => ({
        status: 200,
        contentType: 'text/xml',
        body: '<Response><Pause length="10"/><Hangup/></Response>',
      }));
      const post = () =>
        app.app.request(`${ROOT}/Calls.json`, {
          method: 'POST',
          headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ From: '+15550001', To: '+15550002', Url: 'http://app.test/voice' }),
        });
      const writable = (want: boolean) =>
        new Promise<WriteState>((resolve) => {
          const writes = store.writes;
          if (writes?.writable === want) return resolve(writes.state());
          const stop = writes?.onState((s) => {
            if (s.writable !== want) return;
            stop?.();
            resolve(s);
          });
        });
      const { sid } = (await (await post()).json()) as { sid: string };
      await app.engine.advance(1);

      fill(filler);
      // The call ends while its records cannot be written.
      await app.engine.advance(10);
      const down = await writable(false);
      expect(down.error).toMatch(/full|disk|space|I\/O/i);
      const refused = await post();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('Retry-After')).toBe('1');
      expect(await refused.json()).toMatchObject({ code: 20503, kind: 'store-unavailable' });

      rmSync(filler);
      await writable(true);
      const read = await app.app.request(`${ROOT}/Calls/${sid}.json`, { headers: { Authorization: AUTH } });
      expect(((await read.json()) as { status: string }).status).toBe('completed');
      expect((await post()).status).toBe(200);
    } finally {
      rmSync(filler, { force: true });
      await app.close();
    }
  });
});
