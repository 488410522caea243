import { describe, expect, it } from 'vitest';
import { setup } from './harness.js';

describe('application parameters', () => {
  it('creates, lists, updates and deletes; duplicates and bad bodies are refused', async () => {
    const t = setup();
    const sid = await t.create({ name: 'params' });
    const path = `/projects/${sid}/parameters`;
    expect((await t.json(path, t.send({ name: 'greeting', description: 'the first words' }))).status).toBe(
      201,
    );
    expect((await t.json(path, t.send({ name: 'greeting', description: 'again' }))).body).toMatchObject({
      status: 409,
      code: 20409,
      kind: 'duplicate-name',
    });
    expect((await t.json(path, t.send({ name: 'x' }))).body).toMatchObject({
      status: 400,
      parameter: 'description',
    });
    expect((await t.json(path, t.send({ description: 'd' }))).body).toMatchObject({
      status: 400,
      parameter: 'name',
    });
    expect((await t.json(path, t.send({ name: '1bad', description: 'd' }))).body).toMatchObject({
      parameter: 'name',
    });
    expect((await t.json(path, t.send('[1,'))).status).toBe(400);
    expect((await t.json(`${path}/greeting`, t.send({ value: 'Hello there' }, 'PUT'))).body).toEqual({
      name: 'greeting',
      description: 'the first words',
      value: 'Hello there',
    });
    expect((await t.json(path)).body).toEqual({
      parameters: [{ name: 'greeting', description: 'the first words', value: 'Hello there' }],
    });
    expect((await t.json(`${path}/nope`, { method: 'DELETE' })).status).toBe(404);
    expect((await t.json(`${path}/greeting`, { method: 'DELETE' })).status).toBe(200);
    expect((await t.json(path)).body).toEqual({ parameters: [] });
  });

  it('a parameter value overrides the variable in rendering once built, not before', async () => {
    const t = setup();
    const sid = await t.create({ name: 'params' });
    const structure = (await t.json(`/projects/${sid}`)).body;
    structure.nodes[0].steps[0].phrase = 'Say $greeting';
    await t.json(`/projects/${sid}`, t.send(structure, 'PUT'));
    await t.json(`/projects/${sid}/build`, { method: 'POST' });
    const say = async (query = '') =>
      (await (await t.request(`/apps/${sid}/controller${query}`)).text()).match(/<Say>(.*)<\/Say>/)?.[1];
    expect(await say('?greeting=from%20the%20request')).toBe('Say from the request');
    await t.json(`/projects/${sid}/parameters`, t.send({ name: 'greeting', description: 'd', value: 'Hi' }));
    expect(await say('?greeting=from%20the%20request')).toBe('Say from the request');
    await t.json(`/projects/${sid}/build`, { method: 'POST' });
    expect(await say('?greeting=from%20the%20request')).toBe('Say Hi');
  });
});
