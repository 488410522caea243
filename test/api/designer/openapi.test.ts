import { describe, expect, it } from 'vitest';
import { designerOpenApi } from '../../../src/api/designer/openapi.js';
import { writeWav } from '../../../src/engine/wav.js';
import {
  declaredRoutes,
  problemsOf,
  recordExchanges,
  registeredRoutes,
  unconvertible,
  unexercised,
} from '../openapi-areas.js';
import { SERVICE, setup } from './harness.js';

const IVR = 'TL00000000000000000000000000000001';
const areas = [designerOpenApi];
const wav = writeWav(0.05);
const binary = (bytes: Uint8Array, type: string): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': type },
  body: bytes as unknown as RequestInit['body'],
});

describe('Visual Designer OpenAPI declarations', () => {
  it('declare exactly the routes the service registers, each convertible to JSON Schema', () => {
    const t = setup();
    expect(declaredRoutes(areas).sort()).toEqual(registeredRoutes(t.app, [SERVICE]));
    expect(unconvertible(areas)).toEqual([]);
    const ids = areas.flatMap((a) => a.routes.map((r) => r.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('match what every route really answers, successes and errors', async () => {
    const t = setup({ mediaMaxBytes: 2000 });
    const exchanges = recordExchanges(t.app);
    await t.json('/templates');
    await t.json(`/templates/${IVR}`);
    await t.json('/templates/TL0');
    await t.json('/config');
    const sid = await t.create({ name: 'front desk', template: IVR });
    await t.json('/projects?name=front%20desk', { method: 'POST' });
    await t.json('/projects?kind=fax', { method: 'POST' });
    await t.json('/projects?name=x&template=TL0', { method: 'POST' });
    await t.json('/projects');
    await t.json('/projects', { auth: null });
    const structure = (await t.json(`/projects/${sid}`)).body;
    await t.json(`/projects/${sid}`, t.send(structure, 'PUT'));
    await t.json(`/projects/${sid}`, t.send({ header: { version: '1.15' }, nodes: [{}] }, 'PUT'));
    await t.json(`/projects/${sid}`, t.send('not json', 'PUT'));
    await t.json('/projects/AP0');
    await t.json(`/projects/${sid}/build?type=voice`, { method: 'POST' });
    await t.json(`/projects/${sid}/build?type=sms`, { method: 'POST' });

    await t.json(`/projects/${sid}/parameters`, t.send({ name: 'team', description: 'who', value: 'sales' }));
    await t.json(`/projects/${sid}/parameters`, t.send({ name: 'team', description: 'again' }));
    await t.json(`/projects/${sid}/parameters`, t.send({ name: '1bad' }));
    await t.json(`/projects/${sid}/parameters`);
    await t.json(`/projects/${sid}/parameters/team`, t.send({ value: 'support' }, 'PUT'));
    await t.json(`/projects/${sid}/parameters/none`, t.send({ value: 'x' }, 'PUT'));

    await t.json(`/projects/${sid}/settings`);
    await t.json(`/projects/${sid}/settings`, t.send({ logging: true, loggingRCML: true }));
    await t.json(`/projects/${sid}/settings`, t.send({ logging: 'yes' }));

    await t.json(`/projects/${sid}/wavs?filename=hold.wav`, binary(wav, 'audio/wav'));
    await t.json(`/projects/${sid}/wavs?filename=../x.wav`, binary(wav, 'audio/wav'));
    await t.json(
      `/projects/${sid}/wavs?filename=text.wav`,
      binary(new TextEncoder().encode('text'), 'audio/wav'),
    );
    await t.json(`/projects/${sid}/wavs?filename=big.wav`, binary(writeWav(1), 'audio/wav'));
    await t.json(`/projects/${sid}/wavs`);
    await t.request(`/projects/${sid}/media/hold.wav`);
    await t.request(`/projects/${sid}/wavs/hold.wav`, { headers: { Range: 'bytes=0-3' } });
    await t.request(`/projects/${sid}/wavs/hold.wav`, { headers: { Range: 'bytes=99999-' } });
    await t.json(`/projects/${sid}/media/none.wav`);

    await t.request(`/apps/${sid}/controller?From=%2B1555`);
    await t.request(`/apps/${sid}/controller?target=start.step1.handle`, t.form({ Digits: '2' }));
    await t.request('/apps/AP0/controller');
    await t.request(`/apps/${sid}/log`);
    await t.json(`/apps/${sid}/log`, { method: 'DELETE' });

    const zip = new Uint8Array(await (await t.request(`/projects/${sid}/archive`)).arrayBuffer());
    await t.json('/projects/import?name=copy', binary(zip, 'application/zip'));
    await t.json('/projects/import', binary(zip, 'application/zip'));
    await t.json('/projects/import', binary(new TextEncoder().encode('no zip'), 'application/zip'));

    // The platform designer's own routes.
    await t.json(`/projects/${sid}`, t.send(structure, 'POST'));
    await t.json(`/projects/${sid}/info`);
    await t.json(
      `/projects/${sid}/parameters`,
      t.send({ parameters: [{ name: 'team', value: 'ops' }] }, 'PUT'),
    );
    await t.json(
      `/projects/${sid}/parameters`,
      t.send({ parameters: [{ name: 'nobody', value: 'x' }] }, 'PUT'),
    );
    await t.json(`/projects/${sid}/rename?newName=renamed`, { method: 'PUT' });
    await t.json(`/projects/${sid}/rename`, { method: 'PUT' });
    await t.json(`/projects/${sid}/upgrade`, { method: 'PUT' });
    await t.json(`/projects/${sid}/cc`);
    await t.json(`/projects/${sid}/cc`, t.send({ lanes: [{ startPoint: { to: '+1555', from: '+1666' } }] }));
    await t.json(`/projects/${sid}/cc`);
    await t.json(`/projects/${sid}/cc`, t.send(null));

    await t.json(`/projects/${sid}/wavs?filename=hold.wav`, { method: 'DELETE' });
    await t.json(`/projects/${sid}/wavs?filename=hold.wav`, { method: 'DELETE' });
    await t.json(`/projects/${sid}/parameters/team`, { method: 'DELETE' });
    await t.json(`/projects/${sid}/parameters/team`, { method: 'DELETE' });
    await t.json(`/projects/${sid}`, { method: 'DELETE' });
    await t.json(`/apps/${sid}/log`);

    const statuses = new Set(exchanges.map((e) => e.status));
    expect([...statuses].sort()).toEqual([200, 201, 206, 400, 401, 404, 409, 413, 415, 416, 422]);
    expect(exchanges.flatMap((ex) => problemsOf(areas, ex))).toEqual([]);
    expect(unexercised(areas, exchanges)).toEqual([]);
  });
});
