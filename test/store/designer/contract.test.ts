import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryDesignerStore } from '../../../src/store/designer/memory.js';
import type { DesignerStore } from '../../../src/store/designer/ports.js';
import { postgresDesignerStore } from '../../../src/store/designer/postgres.js';
import { openSqliteDesignerStore } from '../../../src/store/designer/sqlite.js';
import type { DesignerAppRecord } from '../../../src/store/designer/types.js';
import { openScratchPostgres, PG_URL } from '../../support/services.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function sqlite(): DesignerStore {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-designer-store-'));
  const store = openSqliteDesignerStore({ dir });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return store;
}

async function postgres(): Promise<DesignerStore> {
  const platform = await openScratchPostgres();
  cleanups.push(() => platform.close());
  return postgresDesignerStore(platform.connection);
}

const app = (sid: string, name: string, accountSid = 'AC1'): DesignerAppRecord => ({
  sid,
  accountSid,
  name,
  kind: 'voice',
  dateCreated: 1,
  dateUpdated: 1,
  state: { nodes: [] },
  settings: { logging: false, loggingRCML: false, loggingES: false },
});

// PostgreSQL joins when the run has a server (otherwise one line at start says it is skipped).
const implementations: Array<[string, () => DesignerStore | Promise<DesignerStore>]> = [
  ['memory', createMemoryDesignerStore],
  ['sqlite', sqlite],
  ...(PG_URL ? [['postgres', postgres] as [string, () => Promise<DesignerStore>]] : []),
];

describe.each(implementations)('%s designer store', (_name, open) => {
  it('keeps names unique per account and reads through the owner only', async () => {
    const store = await open();
    expect(await store.apps.create(app('AP1', 'menu'))).toBe('created');
    expect(await store.apps.create(app('AP2', 'menu'))).toBe('duplicate-name');
    expect(await store.apps.create(app('AP3', 'menu', 'AC2'))).toBe('created');
    expect(await store.apps.get('AC2', 'AP1')).toBeUndefined();
    expect((await store.apps.get('AC1', 'AP1'))?.name).toBe('menu');
    expect((await store.apps.list('AC1')).map((a) => a.sid)).toEqual(['AP1']);
    expect(await store.apps.create(app('AP4', 'other'))).toBe('created');
    expect(await store.apps.update({ ...app('AP4', 'menu') })).toBe('duplicate-name');
    expect(await store.apps.update({ ...app('AP4', 'renamed'), state: { v: 2 } })).toBe('updated');
    expect((await store.apps.get('AC1', 'AP4'))?.state).toEqual({ v: 2 });
    expect(await store.apps.update(app('AP4', 'x', 'AC2'))).toBe('missing');
  });

  it('deleting an application removes its parameters, media and log', async () => {
    const store = await open();
    await store.apps.create(app('AP1', 'menu'));
    expect(await store.parameters.add('AP1', { name: 'p', description: 'd' })).toBe(true);
    expect(await store.parameters.add('AP1', { name: 'p', description: 'again' })).toBe(false);
    expect(await store.parameters.update('AP1', { name: 'p', description: 'd', value: 'v' })).toBe(true);
    expect(await store.parameters.list('AP1')).toEqual([{ name: 'p', description: 'd', value: 'v' }]);
    await store.media.put('AP1', { filename: 'a.wav', bytes: new Uint8Array([1, 2, 3]) });
    expect(await store.media.list('AP1')).toEqual(['a.wav']);
    expect((await store.media.get('AP1', 'a.wav'))?.bytes).toEqual(new Uint8Array([1, 2, 3]));
    await store.logs.append('AP1', ['one', 'two'], 1000);
    expect(await store.apps.delete('AC2', 'AP1')).toBe(false);
    expect(await store.apps.delete('AC1', 'AP1')).toBe(true);
    expect(await store.apps.get('AC1', 'AP1')).toBeUndefined();
    expect(await store.parameters.list('AP1')).toEqual([]);
    expect(await store.media.list('AP1')).toEqual([]);
    expect(await store.logs.read('AP1')).toEqual([]);
  });

  it('a log never exceeds its bound and keeps the newest lines in order', async () => {
    const store = await open();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 120 }),
        async (batches, max) => {
          const sid = `AP${n++}`;
          const all: string[] = [];
          for (const batch of batches) {
            await store.logs.append(sid, batch, max);
            all.push(...batch);
          }
          const kept = await store.logs.read(sid);
          expect(all.slice(all.length - kept.length)).toEqual(kept);
          const size = kept.reduce((s, l) => s + Buffer.byteLength(l) + 1, 0);
          if (kept.length > 1) expect(size).toBeLessThanOrEqual(max);
          if (all.length > 0) expect(kept.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});
