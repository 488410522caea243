import { describe, expect, it } from 'vitest';
import { AUTH_B, BASE, setupEnterprise } from '../enterprise/harness.js';

const setup = async () => {
  const h = await setupEnterprise();
  const en = await h.enterprise();
  const ws = (await h.send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Sales' })).body.data;
  const [offline, online] = ws.activities as Array<{ sid: string }>;
  return { ...h, en, ws, offline: offline.sid, online: online.sid };
};

describe('Task Router task queues', () => {
  it('creates a task queue with defaults (1 reserved worker, 1==1, FIFO, Offline activities) and gets it', async () => {
    const { send, ws, offline, en } = await setup();
    const r = await send('POST', '/taskrouter/taskqueues', {
      workspaceSid: ws.sid,
      enterpriseSid: en,
      name: 'Support',
    });
    expect(r.status).toBe(200);
    const q = r.body.data;
    expect(q).toMatchObject({
      workspaceSid: ws.sid,
      enterpriseSid: en,
      name: 'Support',
      maxReservedWorkers: 1,
      targetWorkers: '1==1',
      taskOrder: 'FIFO',
      assignmentActivitySid: offline,
      reservationActivitySid: offline,
      uri: `/taskrouter/taskqueues/search/${q.sid}`,
    });
    expect(q.sid).toMatch(/^TQ[0-9a-f]{32}$/);
    expect(q.url).toBe(`${BASE}${q.uri}`);
    const got = await send('GET', `/taskrouter/taskqueues/search/${q.sid}`);
    expect(got.body).toEqual({ code: 200, message: 'OK', data: q });
  });

  it('takes every optional field and updates them', async () => {
    const { send, ws, online, offline } = await setup();
    const q = (
      await send('POST', '/taskrouter/taskqueues', {
        workspaceSid: ws.sid,
        name: 'Billing',
        maxReservedWorkers: 50,
        assignmentActivitySid: online,
        reservationActivitySid: online,
        targetWorkers: 'skills HAS "billing" AND level >= 2',
        taskOrder: 'LIFO',
      })
    ).body.data;
    expect(q).toMatchObject({ maxReservedWorkers: 50, assignmentActivitySid: online, taskOrder: 'LIFO' });
    const u = await send('PUT', `/taskrouter/taskqueues/${q.sid}`, {
      name: 'Billing 2',
      maxReservedWorkers: 3,
      reservationActivitySid: offline,
      targetWorkers: 'language IN ["en", "fr"]',
      taskOrder: 'FIFO',
    });
    expect(u.status).toBe(200);
    expect(u.body.data).toMatchObject({
      name: 'Billing 2',
      maxReservedWorkers: 3,
      assignmentActivitySid: online,
      reservationActivitySid: offline,
      targetWorkers: 'language IN ["en", "fr"]',
      taskOrder: 'FIFO',
    });
    expect((await send('GET', `/taskrouter/taskqueues/search/${q.sid}`)).body.data.name).toBe('Billing 2');
  });

  it('searches by workspace and partial name', async () => {
    const { send, ws, en } = await setup();
    const other = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Other' })).body
      .data;
    for (const name of ['Sales A', 'Sales B', 'Support'])
      await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name });
    await send('POST', '/taskrouter/taskqueues', { workspaceSid: other.sid, name: 'Sales C' });
    const r = await send('GET', `/taskrouter/taskqueues/search?workspaceSid=${ws.sid}&name=SALES`);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.result.map((q: { name: string }) => q.name)).toEqual(['Sales A', 'Sales B']);
    expect((await send('GET', '/taskrouter/taskqueues/search?name=sales')).body.data.total).toBe(3);
    expect(
      (await send('GET', '/taskrouter/taskqueues/search', undefined, { auth: AUTH_B })).body.data.total,
    ).toBe(0);
  });

  it('answers 546 for a duplicate name in one workspace on create and update', async () => {
    const { send, ws, en } = await setup();
    await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'Sales' });
    const dup = await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'sales' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ errorCode: '546', message: 'Task Queue not unique' });
    const other = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Other' })).body
      .data;
    expect(
      (await send('POST', '/taskrouter/taskqueues', { workspaceSid: other.sid, name: 'Sales' })).status,
    ).toBe(200);
    const second = (await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'Support' }))
      .body.data;
    const upd = await send('PUT', `/taskrouter/taskqueues/${second.sid}`, { name: 'SALES' });
    expect(upd.body.errorCode).toBe('546');
  });

  it('answers 540 for an unknown or another account task queue, 520 for an unknown workspace', async () => {
    const { send, ws } = await setup();
    const q = (await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'Q' })).body.data;
    const unknown = `TQ${'0'.repeat(32)}`;
    for (const r of [
      await send('GET', `/taskrouter/taskqueues/search/${unknown}`),
      await send('PUT', `/taskrouter/taskqueues/${unknown}`, { name: 'x' }),
      await send('GET', `/taskrouter/taskqueues/search/${q.sid}`, undefined, { auth: AUTH_B }),
    ]) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ errorCode: '540', message: 'Sid of passed TaskQueue not found' });
    }
    const noWs = await send('POST', '/taskrouter/taskqueues', {
      workspaceSid: `WS${'0'.repeat(32)}`,
      name: 'Q',
    });
    expect(noWs.body).toMatchObject({ errorCode: '520', message: 'Sid of passed workspace is not found' });
    const foreignWs = await send(
      'POST',
      '/taskrouter/taskqueues',
      { workspaceSid: ws.sid, name: 'Q2' },
      { auth: AUTH_B },
    );
    expect(foreignWs.body.errorCode).toBe('520');
  });

  it('answers 510 for an activity outside the workspace, on create and update', async () => {
    const { send, ws, en } = await setup();
    const other = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Other' })).body
      .data;
    const foreign = other.activities[1].sid;
    for (const field of ['assignmentActivitySid', 'reservationActivitySid']) {
      const r = await send('POST', '/taskrouter/taskqueues', {
        workspaceSid: ws.sid,
        name: 'Q',
        [field]: foreign,
      });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ errorCode: '510', message: 'Sid of passed activity is not found' });
    }
    const q = (await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'Q' })).body.data;
    const upd = await send('PUT', `/taskrouter/taskqueues/${q.sid}`, {
      assignmentActivitySid: `AT${'0'.repeat(32)}`,
    });
    expect(upd.body.errorCode).toBe('510');
  });

  it('rejects bad fields with a 400 naming them, targetWorkers with its column', async () => {
    const { send, ws } = await setup();
    for (const m of [0, 51, 1.5, 'many']) {
      const r = await send('POST', '/taskrouter/taskqueues', {
        workspaceSid: ws.sid,
        name: 'Q',
        maxReservedWorkers: m,
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('maxReservedWorkers');
    }
    const order = await send('POST', '/taskrouter/taskqueues', {
      workspaceSid: ws.sid,
      name: 'Q',
      taskOrder: 'RANDOM',
    });
    expect(order.body.message).toContain('taskOrder');
    const missing = await send('POST', '/taskrouter/taskqueues', { name: 'Q' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('workspaceSid');
    const expr = await send('POST', '/taskrouter/taskqueues', {
      workspaceSid: ws.sid,
      name: 'Q',
      targetWorkers: 'skill == ',
    });
    expect(expr.status).toBe(400);
    expect(expr.body.message).toBe(
      'targetWorkers: expected a number, string or boolean, found end of expression at column 10',
    );
    const q = (await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'Q' })).body.data;
    const upd = await send('PUT', `/taskrouter/taskqueues/${q.sid}`, { targetWorkers: 'a ~ 1' });
    expect(upd.status).toBe(400);
    expect(upd.body.message).toBe("targetWorkers: unexpected character '~' at column 3");
    expect((await send('GET', `/taskrouter/taskqueues/search/${q.sid}`)).body.data.targetWorkers).toBe(
      '1==1',
    );
  });

  it('sorts and filters searches by creation date (bounds included); unknown paths are 404', async () => {
    const { send, ws, clock } = await setup();
    for (const name of ['B', 'A', 'C']) {
      await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name });
      clock.now += 86_400_000;
    }
    const desc = await send('GET', '/taskrouter/taskqueues/search?SortBy=name:desc');
    expect(desc.body.data.result.map((q: { name: string }) => q.name)).toEqual(['C', 'B', 'A']);
    const day = await send(
      'GET',
      '/taskrouter/taskqueues/search?startTime=2024-03-06&endTime=2024-03-06T12:00:00',
    );
    expect(day.body.data.result.map((q: { name: string }) => q.name)).toEqual(['A']);
    const wsDay = await send('GET', '/taskrouter/workspaces/search?endTime=2024-03-04');
    expect(wsDay.body.data.total).toBe(0);
    const bad = await send('GET', '/taskrouter/workspaces/search?SortBy=email:asc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('SortBy');
    const none = await send('GET', '/taskrouter/workers');
    expect(none.status).toBe(404);
    expect(none.body.errorCode).toBe('not-found');
  });
});
