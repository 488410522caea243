import { afterEach, describe, expect, it } from 'vitest';
import { writeG711Wav } from '../../support/g711.js';
import { setup, setupWithEngine } from './harness.js';

const raw = (bytes: Uint8Array): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'audio/wav' },
  body: bytes as unknown as RequestInit['body'],
});
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

/** A structure whose start module plays a local file, then says goodbye. */
function playing(structure: { nodes: Array<{ steps: unknown[] }> }, filename: string) {
  structure.nodes[0].steps = [
    {
      kind: 'play',
      name: 'step2',
      label: 'play',
      title: 'play',
      playType: 'local',
      local: { wavLocalFilename: filename },
    },
    { kind: 'say', name: 'step3', label: 'say', title: 'say', phrase: 'Goodbye' },
  ];
  return structure;
}

describe('designer media and configuration without the account token', () => {
  it('media files and /config answer without credentials; lists, uploads and the controller need them', async () => {
    const t = setup();
    const sid = await t.create({ name: 'media' });
    const wav = writeG711Wav(0.5, 7);
    await t.json(`/projects/${sid}/wavs?filename=hello.wav`, raw(wav));
    for (const path of [`/projects/${sid}/media/hello.wav`, `/projects/${sid}/wavs/hello.wav`]) {
      const res = await t.request(path, { auth: null });
      expect(res.status, path).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(wav);
    }
    expect((await t.request(`/projects/${sid}/media/none.wav`, { auth: null })).status).toBe(404);
    expect((await t.json('/config', { auth: null })).body.projectVersion).toBe('1.15');
    expect((await t.request(`/projects/${sid}/wavs`, { auth: null })).status).toBe(401);
    expect(
      (await t.request(`/projects/${sid}/wavs?filename=x.wav`, { ...raw(wav), auth: null })).status,
    ).toBe(401);
    expect(
      (await t.request(`/projects/${sid}/wavs?filename=hello.wav`, { method: 'DELETE', auth: null })).status,
    ).toBe(401);
    expect((await t.request(`/apps/${sid}/controller`, { auth: null })).status).toBe(401);
  });

  it('a call plays a designer media file for its whole length', async () => {
    const t = await setupWithEngine();
    cleanups.push(() => t.close());
    const sid = await t.create({ name: 'greeter' });
    await t.json(`/projects/${sid}/wavs?filename=welcome.wav`, raw(writeG711Wav(3, 7)));
    const structure = playing((await t.json(`/projects/${sid}`)).body, 'welcome.wav');
    expect((await t.json(`/projects/${sid}`, t.send(structure, 'PUT'))).status).toBe(200);
    expect((await t.json(`/projects/${sid}/build`, { method: 'POST' })).status).toBe(200);
    const callSid = await t.call(sid, '+15550001', '+15559000');
    await t.advance(10);
    const base = `/platform/2012-04-24/Accounts/${t.engine.accountSid}`;
    const call = await t.json(`${base}/Calls/${callSid}.json`);
    expect(call.body.status).toBe('completed');
    const notifications = await t.json(`${base}/Notifications.json`);
    expect(notifications.body.notifications ?? []).toEqual([]);
    // Three seconds of prompt, then "Goodbye" at 15 characters/s.
    expect(Number(call.body.duration)).toBe(4);
  });
});
