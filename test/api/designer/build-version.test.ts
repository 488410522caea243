import { describe, expect, it } from 'vitest';
import { setup } from './harness.js';

const IVR = 'TL00000000000000000000000000000001';

describe('changes take effect only after a build', () => {
  it('a saved change does not run until built; a call keeps the build it started with', async () => {
    const t = setup();
    const sid = await t.create({ name: 'ivr', template: IVR });
    const render = async (query: string) => (await t.request(`/apps/${sid}/controller?${query}`)).text();
    // Call CA1 starts on build 1.
    expect(await render('CallSid=CA1')).toContain('For sales press 1');

    const structure = (await t.json(`/projects/${sid}`)).body;
    structure.nodes[0].steps[0].steps[0].phrase = 'New menu: press 1.';
    structure.nodes[1].steps[1].phrase = 'Sales, version two.';
    expect((await t.json(`/projects/${sid}`, t.send(structure, 'PUT'))).status).toBe(200);
    // Saved, not built: nothing changes for anyone.
    expect(await render('CallSid=CA2')).toContain('For sales press 1');
    expect(await render('')).toContain('For sales press 1');

    expect((await t.json(`/projects/${sid}/build?type=voice`, { method: 'POST' })).body.version).toBe(2);
    // CA1 and CA2 began before the build: their next requests still run build 1.
    expect(await render('CallSid=CA1&target=start.step1.handle&Digits=1')).toContain(
      'Connecting you to sales.',
    );
    expect(await render('CallSid=CA2')).toContain('For sales press 1');
    // A call that starts now runs build 2, as does a request outside any call.
    expect(await render('CallSid=CA3')).toContain('New menu: press 1.');
    expect(await render('CallSid=CA3&target=start.step1.handle&Digits=1')).toContain('Sales, version two.');
    expect(await render('target=sales')).toContain('Sales, version two.');
  });

  it('a POST controller request reads form parameters; a build reports what the linter finds', async () => {
    const t = setup();
    const sid = await t.create({ name: 'ivr', template: IVR });
    const res = await t.request(`/apps/${sid}/controller?target=start.step1.handle`, t.form({ Digits: '2' }));
    expect(await res.text()).toContain('Our support team will call you back.');
    // A structure that loads but names a missing module still builds (lint reports it).
    const structure = (await t.json(`/projects/${sid}`)).body;
    structure.nodes[0].steps[0].menu.mappings[0].next = 'nowhere';
    await t.json(`/projects/${sid}`, t.send(structure, 'PUT'));
    const built = await t.json(`/projects/${sid}/build`, { method: 'POST' });
    const found = built.body.diagnostics.map((d: { code: string; path: string }) => `${d.code} ${d.path}`);
    expect(found).toEqual([
      'designer.dangling-target nodes[0].steps[0].menu.mappings[0].next',
      'designer.unreachable-module nodes[1]',
    ]);
  });
});
