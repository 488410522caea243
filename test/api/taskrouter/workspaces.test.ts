import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryEnterpriseStore } from '../../../src/store/enterprise/memory.js';
import type { EnterpriseStore } from '../../../src/store/enterprise/ports.js';
import { openSqliteEnterpriseStore } from '../../../src/store/enterprise/sqlite.js';
import { AUTH_B, BASE, setupEnterprise } from '../enterprise/harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stores: Array<[string, () => EnterpriseStore]> = [
  ['memory', () => createMemoryEnterpriseStore()],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'rcml-tr-'));
      dirs.push(dir);
      return openSqliteEnterpriseStore({ dir });
    },
  ],
];

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

describe.each(stores)('Task Router workspaces over the %s store', (_, open) => {
  const setup = async () => {
    const store = open();
    const h = await setupEnterprise({ store });
    const en = await h.enterprise();
    return { ...h, en, close: () => store.close() };
  };

  it('creates a workspace with Offline/Online activities and FIFO applied, and gets it', async () => {
    const { send, en, close } = await setup();
    const r = await send('POST', '/taskrouter/workspaces', {
      enterpriseSid: en,
      name: 'Sales',
      priortizeQueueOrder: 'LIFO',
    });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(200);
    expect(r.body.message).toBe('OK');
    const ws = r.body.data;
    expect(ws.sid).toMatch(/^WS[0-9a-f]{32}$/);
    expect(ws.enterpriseSid).toBe(en);
    expect(ws.priortizeQueueOrder).toBe('LIFO');
    expect(ws.activities.map((a: { name: string; available: boolean }) => [a.name, a.available])).toEqual([
      ['Offline', false],
      ['Online', true],
    ]);
    for (const a of ws.activities) expect(a.sid).toMatch(/^AT[0-9a-f]{32}$/);
    const offline = ws.activities[0].sid;
    expect(ws.defaultActivitySid).toBe(offline);
    expect(ws.defaultActivityName).toBe('Offline');
    expect(ws.timeoutActivitySid).toBe(offline);
    expect(ws.timeoutActivityName).toBe('Offline');
    expect(ws.dateCreated).toMatch(ISO);
    expect(ws.uri).toBe(`/taskrouter/workspaces/search/${ws.sid}`);
    expect(ws.url).toBe(`${BASE}${ws.uri}`);
    const got = await send('GET', `/taskrouter/workspaces/search/${ws.sid}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(ws);
    const alt = await send('POST', '/taskrouter/workspaces', {
      enterpriseSid: en,
      name: 'Other',
      prioritizeQueueOrder: 'LIFO',
    });
    expect(alt.body.data.prioritizeQueueOrder).toBe('LIFO');
    await close();
  });

  it('searches workspaces by enterprise and partial name, in the search envelope', async () => {
    const { send, en, enterprise, close } = await setup();
    const other = await enterprise({ name: 'Other' });
    for (const name of ['Sales East', 'Sales West', 'Support']) {
      await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name });
    }
    await send('POST', '/taskrouter/workspaces', { enterpriseSid: other, name: 'Sales North' });
    const r = await send('GET', `/taskrouter/workspaces/search?enterpriseSid=${en}&name=sales&pageSize=1`);
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.numPages).toBe(2);
    expect(r.body.data.result.map((w: { name: string }) => w.name)).toEqual(['Sales East']);
    expect(r.body.data.result[0].activities).toHaveLength(2);
    expect(r.body.data.nextPageUri).toBe(
      `/taskrouter/workspaces/search?enterpriseSid=${en}&name=sales&page=1&pageSize=1`,
    );
    const all = await send('GET', '/taskrouter/workspaces/search');
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.pageSize).toBe(10);
    await close();
  });

  it('answers 526 for a duplicate name in one enterprise (any case), on create and update', async () => {
    const { send, en, enterprise, close } = await setup();
    await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Sales' });
    const dup = await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'sales' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ errorCode: '526', message: 'Workspace not unique' });
    const other = await enterprise({ name: 'Other' });
    expect(
      (await send('POST', '/taskrouter/workspaces', { enterpriseSid: other, name: 'Sales' })).status,
    ).toBe(200);
    const second = await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Support' });
    const upd = await send('PUT', `/taskrouter/workspaces/${second.body.data.sid}`, { name: 'SALES' });
    expect(upd.status).toBe(409);
    expect(upd.body.errorCode).toBe('526');
    await close();
  });

  it('answers 520 for an unknown or another account workspace on get, update and delete; 467 for an unknown enterprise', async () => {
    const { send, en, close } = await setup();
    const ws = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Sales' })).body.data
      .sid;
    const unknown = `WS${'0'.repeat(32)}`;
    for (const [method, path] of [
      ['GET', `/taskrouter/workspaces/search/${unknown}`],
      ['PUT', `/taskrouter/workspaces/${unknown}`],
      ['DELETE', `/taskrouter/workspaces/${unknown}`],
    ]) {
      const r = await send(method, path, method === 'PUT' ? { name: 'x' } : undefined);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ errorCode: '520', message: 'Sid of passed workspace is not found' });
    }
    const foreign = await send('GET', `/taskrouter/workspaces/search/${ws}`, undefined, { auth: AUTH_B });
    expect(foreign.body.errorCode).toBe('520');
    expect(
      (await send('GET', '/taskrouter/workspaces/search', undefined, { auth: AUTH_B })).body.data.total,
    ).toBe(0);
    const noEnterprise = await send('POST', '/taskrouter/workspaces', {
      enterpriseSid: `EN${'0'.repeat(32)}`,
      name: 'X',
    });
    expect(noEnterprise.body.errorCode).toBe('467');
    const bad = await send('POST', '/taskrouter/workspaces', {
      enterpriseSid: en,
      name: 'Y',
      priortizeQueueOrder: 'RANDOM',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('priortizeQueueOrder');
    expect((await send('GET', '/taskrouter/workspaces/search', undefined, { auth: null })).status).toBe(401);
    await close();
  });

  it('updates activities by sid or name, the sid winning when both are given; 510 for an unknown one', async () => {
    const { send, en, clock, close } = await setup();
    const ws = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Sales' })).body.data;
    const [offline, online] = ws.activities;
    clock.now += 5000;
    const byName = await send('PUT', `/taskrouter/workspaces/${ws.sid}`, { defaultActivityName: 'online' });
    expect(byName.status).toBe(200);
    expect(byName.body.data.defaultActivitySid).toBe(online.sid);
    expect(byName.body.data.defaultActivityName).toBe('Online');
    expect(byName.body.data.dateUpdated).not.toBe(byName.body.data.dateCreated);
    const both = await send('PUT', `/taskrouter/workspaces/${ws.sid}`, {
      timeoutActivitySid: online.sid,
      timeoutActivityName: 'Offline',
      defaultActivitySid: offline.sid,
      defaultActivityName: 'Online',
    });
    expect(both.body.data.timeoutActivitySid).toBe(online.sid);
    expect(both.body.data.defaultActivitySid).toBe(offline.sid);
    const got = await send('GET', `/taskrouter/workspaces/search/${ws.sid}`);
    expect(got.body.data.timeoutActivityName).toBe('Online');
    for (const body of [{ defaultActivitySid: `AT${'0'.repeat(32)}` }, { timeoutActivityName: 'Busy' }]) {
      const r = await send('PUT', `/taskrouter/workspaces/${ws.sid}`, body);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ errorCode: '510', message: 'Sid of passed activity is not found' });
    }
    // A sid of another workspace's activity is unknown here.
    const other = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Other' })).body
      .data;
    const cross = await send('PUT', `/taskrouter/workspaces/${ws.sid}`, {
      defaultActivitySid: other.activities[1].sid,
    });
    expect(cross.body.errorCode).toBe('510');
    await close();
  });

  it('deletes a workspace with its task queues and activities, answering the deleted workspace', async () => {
    const { send, en, enterpriseStore, close } = await setup();
    const ws = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Sales' })).body.data;
    const keep = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Keep' })).body
      .data;
    const q = (await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'Q1' })).body.data;
    const kept = (await send('POST', '/taskrouter/taskqueues', { workspaceSid: keep.sid, name: 'Q1' })).body
      .data;
    const del = await send('DELETE', `/taskrouter/workspaces/${ws.sid}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual(ws);
    expect((await send('GET', `/taskrouter/workspaces/search/${ws.sid}`)).body.errorCode).toBe('520');
    expect((await send('GET', `/taskrouter/taskqueues/search/${q.sid}`)).body.errorCode).toBe('540');
    expect((await send('GET', `/taskrouter/taskqueues/search/${kept.sid}`)).status).toBe(200);
    const account = (await enterpriseStore.enterprises.ownerOf(en)) ?? '';
    const left = await enterpriseStore.activities.search({ accountSid: account, offset: 0, limit: 100 });
    expect(left.items.map((a) => a.workspaceSid)).toEqual([keep.sid, keep.sid]);
    await close();
  });
});
