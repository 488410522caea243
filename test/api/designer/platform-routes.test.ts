import { describe, expect, it } from 'vitest';
import { ACCOUNT_A, setup, withLookahead } from './harness.js';

const zipBody = (zip: Uint8Array): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/zip' },
  body: zip as unknown as RequestInit['body'],
});

describe("the platform designer's own routes", () => {
  it('POST /projects/{sid} saves like PUT; /info answers the header', async () => {
    const t = setup();
    const sid = await t.create({ name: 'front desk' });
    const structure = (await t.json(`/projects/${sid}`)).body;
    structure.nodes[0].label = 'Hello';
    const saved = await t.json(`/projects/${sid}`, t.send(structure, 'POST'));
    expect(saved.status).toBe(200);
    expect((await t.json(`/projects/${sid}`)).body.nodes[0].label).toBe('Hello');
    expect(
      (await t.json(`/projects/${sid}`, t.send({ header: { version: '1.15' }, nodes: [{}] }))).status,
    ).toBe(422);
    const info = await t.json(`/projects/${sid}/info`);
    expect(info.body).toMatchObject({ version: '1.15', projectKind: 'voice', startNodeName: 'start' });
  });

  it('POST /projects/{sid} refuses what PUT refuses: a pattern the bounded regex engine cannot run', async () => {
    const t = setup();
    const sid = await t.create({ name: 'ivr', template: 'TL00000000000000000000000000000001' });
    const before = (await t.json(`/projects/${sid}`)).body;
    const lookahead = withLookahead(before);
    const refused = await t.json(`/projects/${sid}`, t.send(lookahead, 'POST'));
    expect(refused.status).toBe(422);
    expect(refused.body.problems).toEqual([
      {
        path: 'nodes[0].steps[0].conditions[0].matcher.regex',
        message: expect.stringContaining('RE2 syntax'),
      },
    ]);
    expect((await t.json(`/projects/${sid}`)).body).toEqual(before);
  });

  it('PUT /projects/{sid}/parameters sets values of existing parameters by name', async () => {
    const t = setup();
    const sid = await t.create({ name: 'p' });
    await t.json(`/projects/${sid}/parameters`, t.send({ name: 'team', description: 'who', value: 'sales' }));
    await t.json(`/projects/${sid}/parameters`, t.send({ name: 'site', description: 'where' }));
    const set = await t.json(
      `/projects/${sid}/parameters`,
      t.send(
        {
          parameters: [
            { name: 'team', value: 'support', description: null },
            { name: 'site', value: 'Paris' },
          ],
        },
        'PUT',
      ),
    );
    expect(set.body).toEqual({
      parameters: [
        { name: 'team', description: 'who', value: 'support' },
        { name: 'site', description: 'where', value: 'Paris' },
      ],
    });
    const unknown = await t.json(
      `/projects/${sid}/parameters`,
      t.send({ parameters: [{ name: 'zzz', value: 'x' }] }, 'PUT'),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('zzz');
  });

  it('PUT /rename renames the application and its {api_root} record; 409 for a taken name', async () => {
    const t = setup();
    const sid = await t.create({ name: 'one' });
    await t.create({ name: 'two' });
    const renamed = await t.json(`/projects/${sid}/rename?newName=uno`, { method: 'PUT' });
    expect(renamed.body).toEqual({ name: 'uno', sid, kind: 'voice' });
    expect((await t.store.applications.get(ACCOUNT_A, sid))?.friendlyName).toBe('uno');
    const taken = await t.json(`/projects/${sid}/rename?newName=two`, { method: 'PUT' });
    expect(taken.body).toMatchObject({ status: 409, parameter: 'newName' });
    expect((await t.json(`/projects/${sid}/rename`, { method: 'PUT' })).body.parameter).toBe('newName');
  });

  it('PUT /upgrade rebuilds', async () => {
    const t = setup();
    const sid = await t.create({ name: 'u' });
    const res = await t.json(`/projects/${sid}/upgrade`, { method: 'PUT' });
    expect(res.body).toEqual({ sid, projectVersion: '1.15', version: 2 });
  });

  it('the web trigger settings (cc) are stored, served, exported and imported', async () => {
    const t = setup();
    const sid = await t.create({ name: 'w' });
    expect((await t.json(`/projects/${sid}/cc`)).status).toBe(404);
    const cc = { lanes: [{ startPoint: { rcmlUrl: null, to: '+1555', from: '+1666' } }], accessToken: 'tok' };
    expect((await t.json(`/projects/${sid}/cc`, t.send(cc))).body).toEqual(cc);
    expect((await t.json(`/projects/${sid}/cc`)).body).toEqual(cc);
    expect((await t.json(`/projects/${sid}/cc`, t.send({ lanes: 'x' }))).status).toBe(400);
    const zip = new Uint8Array(await (await t.request(`/projects/${sid}/archive`)).arrayBuffer());
    const copy = (await t.json('/projects/import?name=copy', zipBody(zip))).body.sid as string;
    expect((await t.json(`/projects/${copy}/cc`)).body).toEqual(cc);
    expect((await t.json(`/projects/${sid}/cc`, t.send(null))).body).toBeNull();
    expect((await t.json(`/projects/${sid}/cc`)).status).toBe(404);
  });
});
