import { describe, expect, it } from 'vitest';
import type { ChangeListener, ChangeNotice, SharedChanges } from '../../../src/store/changes.js';
import { ACCOUNT_A, setup } from './harness.js';

const IVR = 'TL00000000000000000000000000000001';

/** Change notices in process: what the service published, and a way to tell it of others'. */
function recordedChanges() {
  const published: ChangeNotice[] = [];
  let listener: ChangeListener | undefined;
  const changes: SharedChanges = {
    publish: async (notice) => void published.push(notice),
    subscribe: (l) => {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
  };
  return { changes, published, listener: () => listener };
}

describe('the designer runtime and change notices', () => {
  it('announces builds, settings and deletions, and drops what another node changed', async () => {
    const recorded = recordedChanges();
    const t = setup({ changes: recorded.changes });
    const sid = await t.create({ name: 'ivr', template: IVR });
    const render = async () => (await t.request(`/apps/${sid}/controller?target=sales`)).text();
    expect(await render()).toContain('Connecting you to sales.');
    const notice = { area: 'designer-app', accountSid: ACCOUNT_A, key: sid };
    expect(recorded.published).toEqual([notice]);
    await t.json(`/projects/${sid}/settings`, t.send({ logging: true }));
    expect(recorded.published).toEqual([notice, notice]);

    // Another node builds a new structure: the stored build changes under this node's cache.
    const record = await t.designerStore.apps.get(ACCOUNT_A, sid);
    if (!record?.build) throw new Error('no build');
    const state = structuredClone(record.state) as { nodes: Array<{ steps: Array<{ phrase?: string }> }> };
    state.nodes[1].steps[1].phrase = 'Sales, elsewhere.';
    await t.designerStore.apps.update({ ...record, build: { ...record.build, state, version: 2 } });
    expect(await render()).toContain('Connecting you to sales.');
    await recorded.listener()?.changed({ ...notice, area: 'callqueue-number' });
    expect(await render()).toContain('Connecting you to sales.');
    await recorded.listener()?.changed(notice);
    expect(await render()).toContain('Sales, elsewhere.');

    expect((await t.json(`/projects/${sid}`, { method: 'DELETE' })).status).toBe(200);
    expect(recorded.published).toHaveLength(3);
  });

  it('keeps no record read while a notice about it arrived, and forgets everything on a reset', async () => {
    const recorded = recordedChanges();
    const t = setup({ changes: recorded.changes });
    const sid = await t.create({ name: 'ivr', template: IVR });
    const get = t.designerStore.apps.get;
    let reads = 0;
    let release: (() => void) | undefined;
    t.designerStore.apps.get = async (account, app) => {
      reads += 1;
      if (release === undefined) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      return get(account, app);
    };
    const notice = { area: 'designer-app', accountSid: ACCOUNT_A, key: sid };
    // The build made here is kept; told of a change elsewhere, the node reads the store again.
    await recorded.listener()?.changed(notice);
    const first = t.request(`/apps/${sid}/controller?target=sales`);
    for (let turns = 0; !release && turns < 100; turns++) await new Promise(setImmediate);
    if (!release) throw new Error('the store was not read');
    // The notice lands while the store is being read: that read serves its request, no more.
    await recorded.listener()?.changed(notice);
    release();
    expect((await first).status).toBe(200);
    const controller = `/apps/${sid}/controller?target=sales`;
    const before = reads;
    await t.request(controller);
    await t.request(controller);
    expect(reads - before).toBe(1);
    await recorded.listener()?.reset();
    await t.request(controller);
    expect(reads - before).toBe(2);
  });
});
