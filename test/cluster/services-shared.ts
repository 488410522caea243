/**
 * Checks, over two running nodes of one platform, that the designer, Call Queuing and
 * enterprise records one node writes are read from the other, media bytes included, and that
 * a build the other node keeps in memory follows a deletion.
 */
import { expect } from 'vitest';
import { writeWav } from '../../src/engine/wav.js';
import { eventually } from '../support/cluster.js';

export async function expectServicesShared(one: string, two: string, auth: string): Promise<void> {
  const request = (url: string, init: RequestInit = {}) =>
    fetch(url, { ...init, headers: { Authorization: auth, ...(init.headers as Record<string, string>) } });
  /** GET, or POST of a JSON body; the answer must be 200. */
  const json = async (url: string, body?: object) => {
    const res = await request(
      url,
      body === undefined
        ? {}
        : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
    return (await res.json()) as any;
  };

  const designer = (node: string) => `${node}/visual-designer/services`;
  const created = await json(`${designer(one)}/projects?name=shared-menu`, {});
  expect(created).toMatchObject({ name: 'shared-menu', kind: 'voice' });
  const wav = writeWav(0.25);
  const upload = await request(`${designer(one)}/projects/${created.sid}/wavs?filename=hello.wav`, {
    method: 'POST',
    headers: { 'Content-Type': 'audio/wav' },
    body: wav as unknown as RequestInit['body'],
  });
  expect(upload.status).toBe(200);
  expect(await json(`${designer(two)}/projects`)).toContainEqual(created);
  expect(await json(`${designer(two)}/projects/${created.sid}/wavs`)).toEqual([{ filename: 'hello.wav' }]);
  const media = await request(`${designer(two)}/projects/${created.sid}/media/hello.wav`);
  expect(media.status).toBe(200);
  expect(new Uint8Array(await media.arrayBuffer())).toEqual(wav);

  // Node two compiles the build it runs and keeps it; a deletion through node one reaches it
  // as a change notice over Redis.
  const ivr = await json(
    `${designer(one)}/projects?name=shared-ivr&template=TL00000000000000000000000000000001`,
    {},
  );
  const controller = `${designer(two)}/apps/${ivr.sid}/controller?target=sales`;
  expect((await request(controller)).status).toBe(200);
  expect((await request(`${designer(one)}/projects/${ivr.sid}`, { method: 'DELETE' })).status).toBe(200);
  await eventually('the deletion to reach node two', async () =>
    (await request(controller)).status === 404 ? true : undefined,
  );

  const number = await json(`${one}/callqueue/provisioning`, {
    applicationUrl: 'http://app.test/customer',
    phoneNumber: '+15550170001',
  });
  expect(await json(`${two}/callqueue/numbers/${number.sid}`)).toMatchObject({
    sid: number.sid,
    phoneNumber: '+15550170001',
  });
  // The number is taken for every node.
  const again = await request(`${two}/callqueue/provisioning`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ applicationUrl: 'http://app.test/other', phoneNumber: '+15550170001' }),
  });
  expect(again.status).toBe(409);

  const enterprise = await json(`${one}/enterprises`, { name: 'Acme', accountEmail: 'admin@acme.test' });
  expect((await json(`${two}/enterprises/search/${enterprise.data.sid}`)).data).toEqual(enterprise.data);
}
