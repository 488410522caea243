import { describe, expect, it } from 'vitest';
import { AUTH_B, setup, withLookahead } from './harness.js';

const IVR = 'TL00000000000000000000000000000001';

describe('designer applications', () => {
  it('creates an empty voice application, built and with an {api_root} record', async () => {
    const t = setup();
    const created = await t.json('/projects?name=Front%20desk&kind=voice', { method: 'POST' });
    expect(created).toMatchObject({ status: 200, body: { name: 'Front desk', kind: 'voice' } });
    const sid = created.body.sid as string;
    expect(sid).toMatch(/^AP[0-9a-f]{32}$/);
    const structure = await t.json(`/projects/${sid}`);
    expect(structure.body).toMatchObject({
      header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
      lastNodeId: 1,
      lastStepId: 1,
      nodes: [
        { name: 'start', label: 'Welcome', steps: [{ kind: 'say', name: 'step1', phrase: 'Welcome' }] },
      ],
    });
    const controller = await t.request(`/apps/${sid}/controller`);
    expect(controller.headers.get('content-type')).toBe('application/xml');
    expect(await controller.text()).toContain('<Say>Welcome</Say>');
    const record = await t.json(
      `/platform/2012-04-24/Accounts/${'AC'.padEnd(34, 'a')}/Applications/${sid}.json`,
      {
        method: 'PUT',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'FriendlyName=Reception',
      },
    );
    expect(record.body).toMatchObject({
      friendly_name: 'Reception',
      kind: 'voice',
      rcml_url: `/visual-designer/services/apps/${sid}/controller`,
    });
    // The rename is the application's name: the old one is free again.
    expect((await t.json('/projects')).body).toEqual([{ name: 'Reception', sid, kind: 'voice' }]);
    expect((await t.json('/projects?name=Front%20desk', { method: 'POST' })).status).toBe(200);
    expect(t.errors).toEqual([]);
  });

  it('refuses a missing or duplicate name, an unknown kind or template, with the field named', async () => {
    const t = setup();
    expect((await t.json('/projects', { method: 'POST' })).body).toMatchObject({
      status: 400,
      parameter: 'name',
    });
    expect((await t.json('/projects?name=%20', { method: 'POST' })).body).toMatchObject({
      status: 400,
      parameter: 'name',
    });
    expect((await t.json('/projects?name=a&kind=fax', { method: 'POST' })).body).toMatchObject({
      status: 400,
      parameter: 'kind',
    });
    await t.create({ name: 'a' });
    expect((await t.json('/projects?name=a', { method: 'POST' })).body).toMatchObject({
      status: 409,
      code: 20409,
      kind: 'duplicate-name',
    });
    // Names are unique per account only.
    expect((await t.json('/projects?name=a', { method: 'POST', auth: AUTH_B })).status).toBe(200);
    expect((await t.json('/projects?name=b&template=TL9', { method: 'POST' })).status).toBe(404);
    expect(
      (await t.json(`/projects?name=b&template=${IVR}&kind=sms`, { method: 'POST' })).body,
    ).toMatchObject({
      status: 400,
      parameter: 'kind',
    });
  });

  it('replaces the structure only when every part is valid, listing every problem with its path', async () => {
    const t = setup();
    const sid = await t.create({ name: 'ivr', template: IVR });
    const before = (await t.json(`/projects/${sid}`)).body;
    const broken = structuredClone(before);
    broken.nodes[0].steps[1].phrase = false;
    broken.nodes[1].steps[1].phrase = 7;
    const refused = await t.json(`/projects/${sid}`, t.send(broken, 'PUT'));
    expect(refused.status).toBe(422);
    expect(refused.body.problems.map((p: { path: string }) => p.path)).toEqual([
      'nodes[0].steps[1].phrase',
      'nodes[1].steps[1].phrase',
    ]);
    expect((await t.json(`/projects/${sid}`)).body).toEqual(before);
    expect((await t.json(`/projects/${sid}`, t.send('{not json', 'PUT'))).body).toMatchObject({
      status: 400,
      code: 20002,
      kind: 'malformed-body',
    });
    const edited = structuredClone(before);
    edited.nodes[1].steps[1].phrase = 'Sales here';
    expect((await t.json(`/projects/${sid}`, t.send(edited, 'PUT'))).status).toBe(200);
    expect((await t.json(`/projects/${sid}`)).body.nodes[1].steps[1].phrase).toBe('Sales here');
    const wrongKind = { ...edited, header: { ...edited.header, projectKind: 'sms' } };
    expect((await t.json(`/projects/${sid}`, t.send(wrongKind, 'PUT'))).status).toBe(400);
  });

  it('answers a structure nested deeper than the stack with 422 naming where, not a 500', async () => {
    const t = setup();
    const sid = await t.create({ name: 'ivr', template: IVR });
    const before = (await t.json(`/projects/${sid}`)).body;
    const depth = 20_000;
    const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const body = JSON.stringify(before).replace('"nodes":[', `"junk":${deep},"nodes":[`);
    const refused = await t.json(`/projects/${sid}`, t.send(body, 'PUT'));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid-structure');
    expect(refused.body.problems).toEqual([
      { path: `junk${'.a'.repeat(63)}`, message: 'nested deeper than 64 levels' },
    ]);
    expect(t.errors).toEqual([]);
  });

  it('refuses to save a pattern the bounded regex engine cannot run, naming its path', async () => {
    const t = setup();
    const sid = await t.create({ name: 'ivr', template: IVR });
    const before = (await t.json(`/projects/${sid}`)).body;
    const lookahead = withLookahead(before);
    const refused = await t.json(`/projects/${sid}`, t.send(lookahead, 'PUT'));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid-structure');
    expect(refused.body.problems).toEqual([
      {
        path: 'nodes[0].steps[0].conditions[0].matcher.regex',
        message: expect.stringContaining('RE2 syntax'),
      },
    ]);
    expect((await t.json(`/projects/${sid}`)).body).toEqual(before);
  });

  it('builds on request and says what the linter thinks; refuses a wrong type', async () => {
    const t = setup();
    const sid = await t.create({ name: 'ivr', template: IVR });
    const built = await t.json(`/projects/${sid}/build?type=voice`, { method: 'POST' });
    expect(built.body).toMatchObject({ sid, version: 2, diagnostics: [] });
    expect((await t.json(`/projects/${sid}/build?type=sms`, { method: 'POST' })).body).toMatchObject({
      status: 400,
      parameter: 'type',
    });
    expect((await t.json(`/projects/${sid}/build?type=x`, { method: 'POST' })).status).toBe(400);
  });

  it('deletes an application with everything of it: 404 afterwards, record gone', async () => {
    const t = setup();
    const sid = await t.create({ name: 'gone' });
    await t.json(`/projects/${sid}/parameters`, t.send({ name: 'p', description: 'd' }));
    expect((await t.json(`/projects/${sid}`, { method: 'DELETE' })).status).toBe(200);
    for (const path of [`/projects/${sid}`, `/projects/${sid}/parameters`, `/apps/${sid}/controller`]) {
      expect((await t.json(path)).status).toBe(404);
    }
    expect(await t.store.applications.get('AC'.padEnd(34, 'a'), sid)).toBeUndefined();
    expect(await t.designerStore.parameters.list(sid)).toEqual([]);
    expect((await t.json(`/projects/${sid}`, { method: 'DELETE' })).status).toBe(404);
  });

  it("answers 404 for every route of another account's application, 401 without credentials", async () => {
    const t = setup();
    const sid = await t.create({ name: 'mine' });
    const routes: Array<[string, string]> = [
      ['GET', `/projects/${sid}`],
      ['PUT', `/projects/${sid}`],
      ['DELETE', `/projects/${sid}`],
      ['POST', `/projects/${sid}/build`],
      ['GET', `/projects/${sid}/parameters`],
      ['POST', `/projects/${sid}/parameters`],
      ['DELETE', `/projects/${sid}/parameters/p`],
      ['GET', `/projects/${sid}/wavs`],
      ['POST', `/projects/${sid}/wavs?filename=a.wav`],
      ['DELETE', `/projects/${sid}/wavs?filename=a.wav`],
      ['POST', `/projects/${sid}`],
      ['GET', `/projects/${sid}/info`],
      ['PUT', `/projects/${sid}/parameters`],
      ['PUT', `/projects/${sid}/rename?newName=x`],
      ['PUT', `/projects/${sid}/upgrade`],
      ['GET', `/projects/${sid}/cc`],
      ['POST', `/projects/${sid}/cc`],
      ['GET', `/projects/${sid}/settings`],
      ['POST', `/projects/${sid}/settings`],
      ['GET', `/projects/${sid}/archive`],
      ['GET', `/apps/${sid}/log`],
      ['DELETE', `/apps/${sid}/log`],
      ['GET', `/apps/${sid}/controller`],
      ['POST', `/apps/${sid}/controller`],
    ];
    for (const [method, path] of routes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
      expect([method, path, (await t.json(path, { method, body, auth: AUTH_B })).status]).toEqual([
        method,
        path,
        404,
      ]);
      expect((await t.json(path, { method, body, auth: null })).status).toBe(401);
    }
    // Media downloads need no credentials (unguessable URLs): a missing file is a 404 for anyone.
    for (const path of [`/projects/${sid}/wavs/a.wav`, `/projects/${sid}/media/a.wav`]) {
      expect((await t.json(path, { auth: AUTH_B })).status).toBe(404);
      expect((await t.json(path, { auth: null })).status).toBe(404);
    }
    expect((await t.json(`/projects/${sid}`)).status).toBe(200);
    expect(t.errors).toEqual([]);
  });

  it('serves the gallery, a template with its speech settings, and the configuration', async () => {
    const t = setup({ mediaMaxBytes: 1000 });
    const gallery = await t.json('/templates');
    expect(gallery.body.results.map((r: { name: string }) => r.name)).toEqual([
      'IVR menu',
      'PIN collect and confirm',
      'Voicemail',
      'Call queue: customer',
      'Call queue: agent',
      'SMS auto-reply',
      'USSD menu',
    ]);
    for (const r of gallery.body.results)
      expect(Object.keys(r).sort()).toEqual(['description', 'id', 'name', 'tags']);
    const one = await t.json(`/templates/${IVR}`);
    expect(one.body).toMatchObject({
      id: IVR,
      tags: ['voice'],
      tts: { language: 'en-US' },
      asr: { inputType: 'dtmf' },
    });
    expect((await t.json('/templates/TLnope')).status).toBe(404);
    const config = await t.json('/config');
    expect(config.body).toMatchObject({
      controllerUrl: '/visual-designer/services/apps/{sid}/controller',
      projectVersion: '1.15',
      media: { maxBytes: 1000 },
    });
    expect(config.body.stepKinds).toContain('externalService');
  });
});
