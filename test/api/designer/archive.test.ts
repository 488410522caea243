import { describe, expect, it } from 'vitest';
import { writeWav } from '../../../src/engine/wav.js';
import { setup } from './harness.js';
import { makeZip } from './zip.js';

const IVR = 'TL00000000000000000000000000000001';
const wav = writeWav(0.05);
const zipBody = (zip: Uint8Array): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/zip' },
  body: zip as unknown as RequestInit['body'],
});
const state = JSON.stringify({ header: { version: '1.15' }, nodes: [{ name: 'start', steps: [] }] });

describe('designer archives', () => {
  it('export -> import gives the same structure, media bytes, parameters and settings', async () => {
    const t = setup();
    const sid = await t.create({ name: 'original', template: IVR });
    await t.json(`/projects/${sid}/parameters`, t.send({ name: 'team', description: 'who', value: 'sales' }));
    await t.json(`/projects/${sid}/wavs?filename=hold.wav`, zipBody(wav));
    await t.json(`/projects/${sid}/settings`, t.send({ logging: true }));
    const res = await t.request(`/projects/${sid}/archive`);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="original.zip"');
    const zip = new Uint8Array(await res.arrayBuffer());

    // Same name again is refused; a new name makes a copy.
    expect((await t.json('/projects/import', zipBody(zip))).body).toMatchObject({ status: 409 });
    const imported = await t.json('/projects/import?name=copy', zipBody(zip));
    expect(imported.body).toMatchObject({ name: 'copy', kind: 'voice' });
    const copy = imported.body.sid as string;
    expect((await t.json(`/projects/${copy}`)).body).toEqual((await t.json(`/projects/${sid}`)).body);
    expect((await t.json(`/projects/${copy}/parameters`)).body).toEqual({
      parameters: [{ name: 'team', description: 'who', value: 'sales' }],
    });
    expect((await t.json(`/projects/${copy}/settings`)).body).toEqual({
      logging: true,
      loggingRCML: false,
      loggingES: false,
    });
    const media = await t.request(`/projects/${copy}/media/hold.wav`);
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(wav);
    // The copy is built and runs.
    expect(await (await t.request(`/apps/${copy}/controller`)).text()).toContain('For sales press 1');
  });

  it('refuses zip-slip names, bombs, lying sizes, too many entries and non-zips, creating nothing', async () => {
    const t = setup({ archiveMaxUncompressedBytes: 100_000, archiveMaxEntries: 5 });
    const refuse = async (zip: Uint8Array, code: string, message: RegExp) => {
      const res = await t.json('/projects/import?name=x', zipBody(zip));
      expect(res.body).toMatchObject({ status: 400, code: 20400, kind: code });
      expect(res.body.message).toMatch(message);
    };
    await refuse(
      makeZip([
        { name: 'state', data: state },
        { name: '../evil', data: 'x' },
      ]),
      'unsafe-archive',
      /\.\.|relative/,
    );
    await refuse(
      makeZip([
        { name: 'state', data: state },
        { name: 'wavs/../../x.wav', data: wav },
      ]),
      'unsafe-archive',
      /\.\.|relative/,
    );
    // One leading slash is the archive's root (the platform's exports); two are an absolute path.
    await refuse(makeZip([{ name: '//etc/passwd', data: 'x' }]), 'unsafe-archive', /absolute/);
    await refuse(makeZip([{ name: '/../x', data: 'x' }]), 'unsafe-archive', /\.\./);
    await refuse(makeZip([{ name: '/C:/x', data: 'x' }]), 'unsafe-archive', /absolute/);
    await refuse(
      makeZip([
        { name: '/state', data: state },
        { name: '/wavs/a.wav', data: '/etc/passwd', symlink: true },
      ]),
      'unsafe-archive',
      /symbolic link/,
    );
    await refuse(
      makeZip([
        { name: '/state', data: state },
        { name: 'state', data: state },
      ]),
      'invalid-archive',
      /twice/,
    );
    await refuse(makeZip([{ name: 'C:/x', data: 'x' }]), 'unsafe-archive', /absolute/);
    await refuse(makeZip([{ name: 'a\\b', data: 'x' }]), 'unsafe-archive', /backslash|invalid characters/);
    const zeros = new Uint8Array(1_000_000);
    await refuse(
      makeZip([
        { name: 'state', data: state },
        { name: 'bomb', data: zeros, deflate: true },
      ]),
      'unsafe-archive',
      /more than 100000/,
    );
    await refuse(
      makeZip([
        { name: 'state', data: state },
        { name: 'liar', data: zeros, deflate: true, declaredSize: 10 },
      ]),
      'unsafe-archive',
      /liar/,
    );
    await refuse(
      makeZip(Array.from({ length: 6 }, (_, i) => ({ name: `f${i}`, data: 'x' }))),
      'unsafe-archive',
      /6 entries/,
    );
    await refuse(new TextEncoder().encode('not a zip at all'), 'invalid-archive', /zip/);
    await refuse(makeZip([{ name: 'info', data: '{}' }]), 'invalid-archive', /no "state"/);
    await refuse(
      makeZip([
        { name: 'state', data: state },
        { name: 'wavs/a.wav', data: 'RIFF' },
      ]),
      'invalid-archive',
      /a\.wav/,
    );
    expect((await t.json('/projects')).body).toEqual([]);
    expect(t.errors).toEqual([]);
  });

  it('imports an invalid structure as a 422 listing its problems', async () => {
    const t = setup();
    const zip = makeZip([
      { name: 'state', data: JSON.stringify({ header: { version: '1.15' }, nodes: [{ steps: [] }] }) },
    ]);
    const res = await t.json('/projects/import?name=bad', zipBody(zip));
    expect(res.status).toBe(422);
    expect(res.body.problems[0].path).toBe('nodes[0].name');
    expect((await t.json('/projects')).body).toEqual([]);
  });
});
