import { describe, expect, it } from 'vitest';
import { setup } from './designer/harness.js';
import { setupEnterprise } from './enterprise/harness.js';

const IVR = 'TL00000000000000000000000000000001';

describe('smaller differences from the platform', () => {
  it('a wrongly typed field is named as such, not as missing (maxReservedWorkers: 2.5)', async () => {
    const h = await setupEnterprise();
    const en = await h.enterprise();
    const ws = (await h.send('POST', '/taskrouter/workspaces', { enterpriseSid: en, name: 'Sales' })).body
      .data;
    for (const value of [2.5, 'many', 0]) {
      const r = await h.send('POST', '/taskrouter/taskqueues', {
        workspaceSid: ws.sid,
        name: 'Q',
        maxReservedWorkers: value,
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('maxReservedWorkers: must be an integer from 1 to 50');
    }
    const missing = await h.send('POST', '/taskrouter/taskqueues', { name: 'Q' });
    expect(missing.body.message).toContain('workspaceSid: is required');
  });

  it('a designer application made from a template without a name is named after the template', async () => {
    const t = setup();
    const first = await t.json(`/projects?template=${IVR}`, { method: 'POST' });
    expect(first.status).toBe(200);
    const again = await t.json(`/projects?template=${IVR}`, { method: 'POST' });
    expect([first.body.name, again.body.name]).toEqual(['IVR menu', 'IVR menu 2']);
    expect((await t.json('/projects', { method: 'POST' })).body).toMatchObject({
      status: 400,
      parameter: 'name',
    });
  });

  it('/config says USSD is supported and video is not', async () => {
    const t = setup();
    expect((await t.json('/config')).body).toMatchObject({ ussdSupport: true, videoSupport: false });
  });
});
