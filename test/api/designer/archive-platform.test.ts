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
    expect((await t.json(`/projects/${sid}`)).body.header.version).toBe('1.15');
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
