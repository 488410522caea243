import { afterEach, describe, expect, it } from 'vitest';
import { setupWithEngine } from './harness.js';

const PIN = 'TL00000000000000000000000000000002';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

describe('a designer application answering calls end to end', () => {
  it('created from a template, edited, built and routed, it runs a call and logs it', async () => {
    const t = await setupWithEngine();
    cleanups.push(() => t.close());
    const sid = await t.create({ name: 'pin', template: PIN });
    const structure = (await t.json(`/projects/${sid}`)).body;
    structure.nodes[2].steps[1].phrase = 'PIN accepted, welcome back.';
    expect((await t.json(`/projects/${sid}`, t.send(structure, 'PUT'))).status).toBe(200);
    expect((await t.json(`/projects/${sid}/build?type=voice`, { method: 'POST' })).status).toBe(200);
    const settings = { logging: true, loggingRCML: true, loggingES: false };
    expect((await t.json(`/projects/${sid}/settings`, t.send(settings))).body).toEqual(settings);
    const routed = await t.json('/sim/Numbers', t.form({ Number: '+15550001', ApplicationSid: sid }));
    expect(routed.body.voice_url).toBe(`http://vd.test/visual-designer/services/apps/${sid}/controller`);

    const placed = await t.json('/sim/Calls', t.form({ From: '+15559000', To: '+15550001' }));
    expect(placed.status).toBe(200);
    const callSid = placed.body.sid as string;
    await t.advance(1);
    await t.json(`/sim/Calls/${callSid}/Digits`, t.form({ Digits: '1234' }));
    await t.advance(2);
    await t.json(`/sim/Calls/${callSid}/Digits`, t.form({ Digits: '1' }));
    await t.advance(10);

    const call = await t.json(`/platform/2012-04-24/Accounts/${t.engine.accountSid}/Calls/${callSid}.json`);
    expect(call.body.status).toBe('completed');
    const log = await t.request(`/apps/${sid}/log`);
    expect(log.headers.get('content-type')).toContain('text/plain');
    const text = await log.text();
    const lines = text.trimEnd().split('\n');
    expect(lines.every((l) => /^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] /.test(l) || !l.startsWith('['))).toBe(true);
    expect(
      lines.filter((l) => /\] Running target: /.test(l)).map((l) => l.replace(/^.*target: /, '')),
    ).toEqual(['start', 'start.step1.handle', 'confirm.step5.handle']);
    expect(text).toMatch(/\] \[LOG\] PIN 1234 confirmed/);
    expect(text).toMatch(/\] \[RCML\] [\s\S]*You entered 1234/);
    expect(text).toMatch(/\] \[RCML\] [\s\S]*PIN accepted, welcome back\./);
    expect(t.errors).toEqual([]);
  });

  it('a number routed to an application of another account is refused', async () => {
    const t = await setupWithEngine();
    cleanups.push(() => t.close());
    const sid = await t.create({ name: 'pin', template: PIN });
    const { AUTH_B } = await import('./harness.js');
    expect(
      (await t.json('/sim/Numbers', { ...t.form({ Number: '+1555', ApplicationSid: sid }), auth: AUTH_B }))
        .status,
    ).toBe(404);
    expect((await t.json('/sim/Numbers', t.form({ Number: '+1555' }))).body).toMatchObject({
      status: 400,
      parameter: 'VoiceUrl',
    });
  });
});
