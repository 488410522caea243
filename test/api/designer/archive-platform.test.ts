import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeWav } from '../../../src/engine/wav.js';
import { setup } from './harness.js';
import { makeZip, type ZipEntry } from './zip.js';

const zipBody = (zip: Uint8Array): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/zip' },
  body: zip as unknown as RequestInit['body'],
});
const wav = writeWav(0.05);

/** A project of format 1.13, as the platform's designer saved it (owner an e-mail). */
const state113 = JSON.stringify({
  lastStepId: 3,
  nodes: [
    {
      name: 'start',
      label: 'Welcome',
      kind: 'voice',
      steps: [{ phrase: 'Welcome to the demo', kind: 'say', label: 'say', title: 'say', name: 'step1' }],
    },
  ],
  lastNodeId: 0,
  header: {
    projectKind: 'voice',
    startNodeName: 'start',
    owner: 'administrator@company.com',
    version: '1.13',
  },
});

/**
 * The entries of a project directory as the platform's zipper writes them: every name with a
 * leading slash, a directory entry before its files, in the directory's listing order (the
 * built `data/` files and `bootstrap` included), deflated through a Java ZipOutputStream.
 */
function platformEntries(state: string): ZipEntry[] {
  return [
    { name: '/wavs/', data: '' },
    { name: '/wavs/welcome.wav', data: wav, deflate: true },
    { name: '/data/', data: '' },
    { name: '/data/start.node', data: '{"name":"start"}', deflate: true },
    { name: '/state', data: state, deflate: true },
    {
      name: '/cc',
      data: JSON.stringify({ lanes: [{ startPoint: { to: '+1555', from: '+1666' } }] }),
      deflate: true,
    },
    { name: '/settings', data: JSON.stringify({ logging: true, loggingRCML: null }), deflate: true },
    {
      name: '/parameters',
      data: JSON.stringify({ parameters: [{ name: 'team', value: 'sales', description: null }] }),
      deflate: true,
    },
    { name: '/bootstrap', data: '{}', deflate: true },
  ];
}

describe('archives exported by the platform designer', () => {
  it('import with their leading slashes, upgrade an older state and keep media, settings and parameters', async () => {
    const t = setup();
    const zip = makeZip(platformEntries(state113), { java: true });
    const res = await t.json('/projects/import?name=demo', zipBody(zip));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sid = res.body.sid as string;
    expect(res.body).toMatchObject({ name: 'demo', kind: 'voice' });
    const header = (await t.json(`/projects/${sid}`)).body.header;
    expect(header).toMatchObject({ version: '1.15', owner: 'administrator@company.com' });
    expect((await t.json(`/projects/${sid}/wavs`)).body).toEqual([{ filename: 'welcome.wav' }]);
    const media = await t.request(`/projects/${sid}/media/welcome.wav`);
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(wav);
    expect((await t.json(`/projects/${sid}/settings`)).body).toEqual({
      logging: true,
      loggingRCML: false,
      loggingES: false,
    });
    expect((await t.json(`/projects/${sid}/parameters`)).body).toEqual({
      parameters: [{ name: 'team', description: '', value: 'sales' }],
    });
    expect(await (await t.request(`/apps/${sid}/controller`)).text()).toContain('Welcome to the demo');
    expect((await t.json(`/projects/${sid}/cc`)).body).toEqual({
      lanes: [{ startPoint: { to: '+1555', from: '+1666' } }],
    });
  });

  it('imports a state of the oldest format (no header) the same way', async () => {
    const t = setup();
    const rvd714 = JSON.stringify({
      lastStepId: 1,
      nodes: [{ name: 'start', label: 'Welcome', kind: 'voice', steps: [] }],
      lastNodeId: 0,
      startNodeName: 'start',
    });
    const zip = makeZip([{ name: '/state', data: rvd714, deflate: true }], { java: true });
    const res = await t.json('/projects/import?name=old', zipBody(zip));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  const workspace = '/work/shared/fixtures/rvd/visual-designer/designer/src/main/webapp/workspace';
  it.skipIf(!existsSync(workspace))(
    'imports every workspace project of the platform, zipped as it zips them',
    async () => {
      const t = setup();
      for (const dir of readdirSync(workspace).sort()) {
        const entries: ZipEntry[] = [{ name: '/data/', data: '' }];
        for (const file of readdirSync(join(workspace, dir, 'data')).sort())
          entries.push({
            name: `/data/${file}`,
            data: readFileSync(join(workspace, dir, 'data', file)),
            deflate: true,
          });
        entries.push({ name: '/state', data: readFileSync(join(workspace, dir, 'state')), deflate: true });
        const res = await t.json(`/projects/import?name=${dir}`, zipBody(makeZip(entries, { java: true })));
        expect(res.status, `${dir}: ${JSON.stringify(res.body)}`).toBe(200);
      }
    },
  );
});

describe("the platform designer's import request", () => {
  const upload = (zip: Uint8Array, filename: string, extra: Record<string, string> = {}): RequestInit => {
    const form = new FormData();
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    form.append('file', new Blob([zip as unknown as ArrayBuffer], { type: 'application/zip' }), filename);
    return { method: 'POST', body: form };
  };
  const zip = makeZip(platformEntries(state113), { java: true });

  it('a multipart POST /projects imports each file named after its base name, made unique', async () => {
    const t = setup();
    const first = await t.json('/projects', upload(zip, 'Front desk.zip'));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual([{ field: 'file', name: 'Front desk', id: expect.stringMatching(/^AP/) }]);
    const second = await t.json('/projects', upload(zip, 'Front desk.zip', { note: 'hello' }));
    expect(second.body).toEqual([
      { field: 'note', value: 'hello' },
      { field: 'file', name: 'Front desk 2', id: expect.stringMatching(/^AP/) },
    ]);
    const named = await t.json('/projects?name=Chosen', upload(zip, 'ignored.zip'));
    expect(named.body[0]).toMatchObject({ name: 'Chosen' });
    const list = (await t.json('/projects')).body.map((a: { name: string }) => a.name);
    expect(list).toEqual(['Front desk', 'Front desk 2', 'Chosen']);
    // The imported application runs.
    const id = first.body[0].id as string;
    expect(await (await t.request(`/apps/${id}/controller`)).text()).toContain('Welcome to the demo');
  });

  it('names the missing part: no file part, no name', async () => {
    const t = setup();
    const form = new FormData();
    form.append('note', 'x');
    const noFile = await t.json('/projects', { method: 'POST', body: form });
    expect(noFile.body).toMatchObject({ status: 400, parameter: 'file' });
    expect(noFile.body.message).toMatch(/^file: .*zip/);
    const noName = await t.json('/projects/import', zipBody(zip));
    expect(noName.body).toMatchObject({ status: 400, parameter: 'name' });
    expect(noName.body.message).toMatch(/^name: is required/);
    // A multipart upload to /projects/import is named after its file.
    const multipart = await t.json('/projects/import', upload(zip, 'reception.zip'));
    expect(multipart.body).toMatchObject({ name: 'reception', kind: 'voice' });
    expect((await t.json('/projects')).body).toHaveLength(1);
  });
});
