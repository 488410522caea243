import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../src/designer/context.js';
import { setup } from './harness.js';

const fakeFetch: FetchLike = async () => ({ status: 200, text: async () => '{"ok":true}' });

/** An application whose start module calls a service, logs a line and says something. */
async function loggingApp(t: ReturnType<typeof setup>, url = 'http://es.test/api') {
  const sid = await t.create({ name: 'logs' });
  const structure = (await t.json(`/projects/${sid}`)).body;
  structure.nodes[0].steps = [
    {
      kind: 'externalService',
      name: 'step2',
      label: 'es',
      title: 'es',
      url,
      method: 'GET',
      assignments: [],
      urlParams: [],
      doRouting: false,
    },
    { kind: 'log', name: 'step3', label: 'log', title: 'log', message: 'caller is $core_From' },
    { kind: 'say', name: 'step4', label: 'say', title: 'say', phrase: 'Hello' },
  ];
  expect((await t.json(`/projects/${sid}`, t.send(structure, 'PUT'))).status).toBe(200);
  expect((await t.json(`/projects/${sid}/build`, { method: 'POST' })).status).toBe(200);
  return sid;
}

describe('application logs', () => {
  it('settings switch each kind of line on and off, at once and without a build', async () => {
    const t = setup({ fetch: fakeFetch });
    const sid = await loggingApp(t);
    const call = () => t.request(`/apps/${sid}/controller?From=%2B1555`);
    const log = async () => {
      const res = await t.request(`/apps/${sid}/log`);
      return { status: res.status, text: await res.text() };
    };
    expect((await t.json(`/projects/${sid}/settings`)).body).toEqual({
      logging: false,
      loggingRCML: false,
      loggingES: false,
    });
    await call();
    expect((await log()).status).toBe(404);

    await t.json(`/projects/${sid}/settings`, t.send({ logging: true }));
    expect((await log()).text).toBe('');
    await call();
    let text = (await log()).text;
    expect(text).toBe(
      '[2024-06-01T00:00:00.000Z] Running target: start\n[2024-06-01T00:00:00.000Z] [LOG] caller is +1555\n',
    );

    await t.json(`/apps/${sid}/log`, { method: 'DELETE' });
    await t.json(`/projects/${sid}/settings`, t.send({ loggingRCML: true, loggingES: true }));
    await call();
    text = (await log()).text;
    expect(text).toContain('[ES] [REQUEST] GET http://es.test/api');
    expect(text).toContain('[ES] [RESPONSE] 200 {"ok":true}');
    expect(text).toMatch(/\[RCML\] [\s\S]*<Say>Hello<\/Say>/);

    await t.json(`/apps/${sid}/log`, { method: 'DELETE' });
    await t.json(`/projects/${sid}/settings`, t.send({ loggingES: false }));
    await call();
    text = (await log()).text;
    expect(text).not.toContain('[ES]');
    expect(text).toContain('[RCML]');
    expect(text).toContain('[LOG]');

    expect((await t.json(`/projects/${sid}/settings`, t.send({ logging: 'yes' }))).body).toMatchObject({
      status: 400,
      parameter: 'logging',
    });
    expect((await t.json(`/projects/${sid}/settings`, t.send({ verbose: true }))).status).toBe(400);
  });

  it('hides the password of an external-service URL in every line', async () => {
    const failing: FetchLike = async () => {
      throw new TypeError('fetch failed');
    };
    const t = setup({ fetch: failing });
    const sid = await loggingApp(t, 'http://user:s3cret-pw@es.test/api');
    await t.json(`/projects/${sid}/settings`, t.send({ logging: true, loggingES: true, loggingRCML: true }));
    await t.request(`/apps/${sid}/controller?From=%2B1555`);
    const text = await (await t.request(`/apps/${sid}/log`)).text();
    expect(text).toContain('[ES] [REQUEST] GET http://user:***@es.test/api');
    expect(text).toContain('[EXCEPTION] request to http://user:***@es.test/api failed: fetch failed');
    expect(text).not.toContain('s3cret-pw');
  });

  it('keeps each log within its bound, dropping the oldest lines', async () => {
    const t = setup({ fetch: fakeFetch, logMaxBytes: 400 });
    const sid = await loggingApp(t);
    await t.json(`/projects/${sid}/settings`, t.send({ logging: true }));
    for (let i = 0; i < 20; i++) await t.request(`/apps/${sid}/controller?From=caller${i}`);
    const text = await (await t.request(`/apps/${sid}/log`)).text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(400);
    expect(text).toContain('caller is caller19');
    expect(text).not.toContain('caller is caller0\n');
  });
});
