import { describe, expect, it } from 'vitest';
import { autoAttendantOpenApi } from '../../../src/api/autoattendant/openapi.js';
import { enterprisesOpenApi } from '../../../src/api/enterprise/openapi.js';
import { taskRouterOpenApi } from '../../../src/api/taskrouter/openapi.js';
import { writeWav } from '../../../src/engine/wav.js';
import {
  declaredRoutes,
  problemsOf,
  recordExchanges,
  registeredRoutes,
  unconvertible,
  unexercised,
} from '../openapi-areas.js';
import { AUTH_B, setupEnterprise } from './harness.js';

const areas = [enterprisesOpenApi, autoAttendantOpenApi, taskRouterOpenApi];

describe('Enterprise, Auto Attendant and Task Router OpenAPI declarations', () => {
  it('declare exactly the routes the areas register, each convertible to JSON Schema', async () => {
    const { app } = await setupEnterprise();
    const mounts = areas.map((a) => a.mount);
    expect(declaredRoutes(areas).sort()).toEqual(registeredRoutes(app, mounts));
    expect(unconvertible(areas)).toEqual([]);
  });

  it('match what every route really answers, successes and errors', async () => {
    const t = await setupEnterprise({ maxAudioBytes: 4096 });
    const exchanges = recordExchanges(t.app);
    const { send } = t;
    const en = await t.enterprise();
    await send('POST', '/enterprises', { name: '' });
    await send('POST', '/enterprises', { name: 'x'.repeat(5000) });
    await send('GET', '/enterprises/search?name=ac&SortBy=name:desc');
    await send('GET', '/enterprises/search?pageSize=0');
    await send('GET', `/enterprises/search/${en}`);
    await send('GET', `/enterprises/search/${en}`, undefined, { auth: AUTH_B });
    await send('PUT', `/enterprises/${en}`, { accountEmail: 'ops@acme.test' });
    await send('PUT', `/enterprises/${en}`, { accountEmail: 'not mail' });
    await send('PUT', '/enterprises/EN0', { name: 'y' });
    await send('GET', '/enterprises/search', undefined, { auth: null });

    const boss = (
      await send('POST', '/autoattendant/user', {
        emailId: 'boss@acme.test',
        role: 'BG_ADMIN',
        enterpriseSid: en,
        password: 'correct horse',
      })
    ).body.data.sid;
    await send('POST', '/autoattendant/user', {
      emailId: 'BOSS@acme.test',
      role: 'AA_ADMIN',
      enterpriseSid: en,
    });
    await send('POST', '/autoattendant/user', { emailId: 'x', role: 'AA_ADMIN' });
    const aa = (
      await send(
        'POST',
        '/autoattendant/user',
        { emailId: 'aa@acme.test', role: 'AA_ADMIN' },
        { actingUser: 'boss@acme.test' },
      )
    ).body.data.sid;
    await send('GET', '/autoattendant/user/search?role=AA_ADMIN&SortBy=email');
    await send('GET', '/autoattendant/user/search?status=GONE');
    await send('GET', `/autoattendant/user/search/${boss}`);
    await send('GET', '/autoattendant/user/search/RCS0');
    await send('PUT', `/autoattendant/user/${aa}`, { status: 'SUSPENDED' }, { actingUser: boss });
    await send('PUT', `/autoattendant/user/${boss}`, { status: 'SUSPENDED' }, { actingUser: boss });
    await send('PUT', `/autoattendant/user/${aa}`, { status: 'LOST' });

    const say = (
      await send('POST', '/autoattendant/announcement', {
        name: 'hello',
        enterpriseSid: en,
        type: 'say',
        body: 'Hi',
        language: 'en-gb',
        voice: 'woman',
      })
    ).body.data.sid;
    const play = (
      await send('POST', '/autoattendant/announcement', { name: 'music', enterpriseSid: en, type: 'play' })
    ).body.data.sid;
    await send('POST', '/autoattendant/announcement', { name: 'bad', enterpriseSid: en, type: 'say' });
    await send('POST', '/autoattendant/announcement', { enterpriseSid: en, type: 'say' });
    await send('GET', '/autoattendant/announcement/search?name=e&page=0&pageSize=1');
    await send('GET', `/autoattendant/announcement/search/${say}`);
    await send('GET', '/autoattendant/announcement/search/AN0');
    await send('PUT', `/autoattendant/announcement/${say}`, { voice: 'Man' });
    await send('PUT', `/autoattendant/announcement/${say}`, { language: 'xx' });
    await send('PUT', `/autoattendant/announcement/${say}`, { name: 5 });
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(writeWav(0.05))]), 'music.wav');
    const uploaded = await send('POST', `/autoattendant/file/announcement/${play}`, undefined, { raw: form });
    await send('POST', `/autoattendant/file/announcement/${play}`, undefined, { raw: new FormData() });
    const res = await t.app.fetch(new Request(`http://api.test${uploaded.body.data.fileUri}`));
    expect(res.status).toBe(200);
    await t.app.fetch(new Request('http://api.test/autoattendant/file/announcement/AN0/x.wav'));

    const ws = (await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Support' })).body
      .data;
    await send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'support' });
    await send('POST', '/taskrouter/workspaces', { name: 'No enterprise' });
    await send('GET', `/taskrouter/workspaces/search?enterpriseSid=${en}&startTime=2024-03-05`);
    await send('GET', '/taskrouter/workspaces/search?endTime=yesterday');
    await send('GET', `/taskrouter/workspaces/search/${ws.sid}`);
    await send('GET', '/taskrouter/workspaces/search/WS0');
    await send('PUT', `/taskrouter/workspaces/${ws.sid}`, {
      defaultActivityName: 'online',
      prioritizeQueueOrder: 'LIFO',
    });
    await send('PUT', `/taskrouter/workspaces/${ws.sid}`, { timeoutActivitySid: 'AT0' });
    await send('PUT', `/taskrouter/workspaces/${ws.sid}`, { priortizeQueueOrder: 'RANDOM' });
    const tq = (
      await send('POST', '/taskrouter/taskqueues', {
        workspaceSid: ws.sid,
        name: 'Tier 1',
        targetWorkers: "skills HAS 'en'",
      })
    ).body.data.sid;
    await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'tier 1' });
    await send('POST', '/taskrouter/taskqueues', { workspaceSid: ws.sid, name: 'x', targetWorkers: 'a ==' });
    await send('GET', `/taskrouter/taskqueues/search?workspaceSid=${ws.sid}`);
    await send('GET', '/taskrouter/taskqueues/search?SortBy=size');
    await send('GET', `/taskrouter/taskqueues/search/${tq}`);
    await send('GET', '/taskrouter/taskqueues/search/TQ0');
    await send('PUT', `/taskrouter/taskqueues/${tq}`, { maxReservedWorkers: 5, taskOrder: 'LIFO' });
    await send('PUT', `/taskrouter/taskqueues/${tq}`, { maxReservedWorkers: 51 });
    await send('PUT', `/taskrouter/taskqueues/${tq}`, { reservationActivitySid: 'AT0' });
    await send('DELETE', `/taskrouter/workspaces/${ws.sid}`);
    await send('DELETE', `/taskrouter/workspaces/${ws.sid}`);

    expect([...new Set(exchanges.map((e) => e.status))].sort()).toEqual([200, 400, 401, 409, 413]);
    expect(exchanges.flatMap((ex) => problemsOf(areas, ex))).toEqual([]);
    expect(unexercised(areas, exchanges)).toEqual([]);
  });
});
