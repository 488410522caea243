import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportGate } from '../../../src/api/designer/import-gate.js';
import { createMemoryDesignerStore } from '../../../src/store/designer/memory.js';
import { AUTH_B, setup } from './harness.js';
import { makeZip } from './zip.js';

const state = JSON.stringify({ header: { version: '1.15' }, nodes: [{ name: 'start', steps: [] }] });
const zipBody = (zip: Uint8Array): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/zip' },
  body: zip as unknown as RequestInit['body'],
});

describe('archive import limits', () => {
  it('refuses by the declared total before inflating any entry', async () => {
    const t = setup({ archiveMaxUncompressedBytes: 100_000 });
    // The first entry's data cannot be inflated: reading it first would fail on it, not on the total.
    const garbage = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const zeros = new Uint8Array(40_000);
    const zip = makeZip([
      { name: 'state', data: garbage, declaredSize: 10, rawDeflated: true },
      ...Array.from({ length: 3 }, (_, i) => ({ name: `wavs/z${i}.wav`, data: zeros, deflate: true })),
    ]);
    const res = await t.json('/projects/import?name=x', zipBody(zip));
    expect(res.body).toMatchObject({ status: 400, kind: 'unsafe-archive' });
    expect(res.body.message).toMatch(/declares more than 100000/);
  });

  it('many small zero-filled entries are refused from the central directory alone', async () => {
    const t = setup({ archiveMaxUncompressedBytes: 1_000_000, archiveMaxEntries: 1000 });
    const chunk = new Uint8Array(56_000);
    const zip = makeZip([
      { name: 'state', data: state },
      ...Array.from({ length: 30 }, (_, i) => ({ name: `z${i}`, data: chunk, deflate: true })),
    ]);
    expect(zip.byteLength).toBeLessThan(10_000);
    const res = await t.json('/projects/import?name=x', zipBody(zip));
    expect(res.body.message).toMatch(/declares more than 1000000/);
  });

  it('caps concurrent imports per account and per server with 429 too-many-imports', async () => {
    const store = createMemoryDesignerStore();
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const blocked = new Promise<void>((r) => {
      release = r;
    });
    const reached = new Promise<void>((r) => {
      entered = r;
    });
    const create = store.apps.create.bind(store.apps);
    let first = true;
    store.apps.create = async (app) => {
      if (first) {
        first = false;
        entered();
        await blocked;
      }
      return create(app);
    };
    const t = setup({ designer: store, archiveMaxImportsPerAccount: 1, archiveMaxImports: 2 });
    const zip = makeZip([{ name: 'state', data: state }]);
    const held = t.json('/projects/import?name=held', zipBody(zip));
    await reached;
    const again = await t.json('/projects/import?name=again', zipBody(zip));
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ kind: 'too-many-imports', code: 20429 });
    expect(again.body.message).toMatch(/account already runs 1/);
    // Another account still has room under the server's cap of 2.
    const other = await t.json('/projects/import?name=other', { ...zipBody(zip), auth: AUTH_B });
    expect(other.status).toBe(200);
    release();
    expect((await held).status).toBe(200);
    expect((await t.json('/projects/import?name=after', zipBody(zip))).status).toBe(200);
  });
});

describe('ImportGate', () => {
  it('never lets more than the caps in, and releases exactly once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2 })), { maxLength: 60 }),
        (perAccount, perServer, ops) => {
          const gate = new ImportGate({ perAccount, perServer });
          const held: { account: string; release: () => void }[] = [];
          for (const [enter, who] of ops) {
            const account = `AC${who}`;
            if (enter) {
              const mine = held.filter((h) => h.account === account).length;
              const expectOk = mine < perAccount && held.length < perServer;
              let ok = true;
              try {
                held.push({ account, release: gate.enter(account) });
              } catch {
                ok = false;
              }
              expect(ok).toBe(expectOk);
            } else if (held.length > 0) {
              const h = held.splice(0, 1)[0];
              h.release();
              h.release();
            }
            expect(gate.inFlight()).toBe(held.length);
            expect(gate.inFlight(account)).toBe(held.filter((h) => h.account === account).length);
          }
        },
      ),
    );
  });
});
