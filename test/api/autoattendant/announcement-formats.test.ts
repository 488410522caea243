import { describe, expect, it } from 'vitest';
import { writeMp4 } from '../../../src/engine/mp4.js';
import { writeWav } from '../../../src/engine/wav.js';
import { writeG711Wav } from '../../support/g711.js';
import { BASE, setupEnterprise } from '../enterprise/harness.js';

async function withAnnouncement() {
  const env = await setupEnterprise();
  const enterpriseSid = await env.enterprise();
  const created = await env.send('POST', '/autoattendant/announcement', {
    name: 'Welcome',
    enterpriseSid,
    type: 'play',
    language: 'en',
  });
  const sid = created.body.data.sid as string;
  const upload = (bytes: Uint8Array, filename: string) => {
    const form = new FormData();
    form.set('file', new Blob([bytes.slice().buffer]), filename);
    return env.send('POST', `/autoattendant/file/announcement/${sid}`, undefined, { raw: form });
  };
  return { ...env, sid, upload };
}

describe('announcement audio formats', () => {
  it('takes µ-law and A-law WAVs and an MP4, served with their type', async () => {
    const { upload, app } = await withAnnouncement();
    for (const format of [7, 6] as const) {
      const r = await upload(writeG711Wav(0.5, format), 'prompt.wav');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const mp4 = writeMp4(2);
    const r = await upload(mp4, 'Intro Clip.MP4');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.fileUri).toMatch(/\/Intro_Clip\.mp4$/);
    const res = await app.fetch(new Request(BASE + r.body.data.fileUri));
    expect(res.headers.get('Content-Type')).toBe('video/mp4');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(mp4);
  });

  it('refuses a WAV named .mp4 and an MP4 named .wav with 504', async () => {
    const { upload } = await withAnnouncement();
    for (const [bytes, name] of [
      [writeWav(0.2), 'x.mp4'],
      [writeMp4(1), 'x.wav'],
    ] as const) {
      const r = await upload(bytes, name);
      expect(r.body.errorCode).toBe('504');
    }
  });
});
