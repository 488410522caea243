import { describe, expect, it } from 'vitest';
import { writeMp4 } from '../../../src/engine/mp4.js';
import { writeWav } from '../../../src/engine/wav.js';
import { writeG711Wav } from '../../support/g711.js';
import { setup } from './harness.js';
import { makeZip } from './zip.js';

const raw = (bytes: Uint8Array, type = 'audio/wav'): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': type },
  body: bytes as unknown as RequestInit['body'],
});
const state = JSON.stringify({ header: { version: '1.15' }, nodes: [{ name: 'start', steps: [] }] });

describe('designer media formats', () => {
  it('takes A-law and µ-law WAVs and MP4s, serving each with its type', async () => {
    const t = setup();
    const sid = await t.create({ name: 'formats' });
    const mulaw = writeG711Wav(0.2, 7);
    const alaw = writeG711Wav(0.2, 6);
    const mp4 = writeMp4(1.5);
    for (const [name, bytes] of [
      ['mulaw.wav', mulaw],
      ['alaw.wav', alaw],
      ['clip.mp4', mp4],
    ] as const) {
      const res = await t.json(`/projects/${sid}/wavs?filename=${name}`, raw(bytes));
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const served = await t.request(`/projects/${sid}/media/clip.mp4`);
    expect(served.headers.get('content-type')).toBe('video/mp4');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(mp4);
    const wav = await t.request(`/projects/${sid}/wavs/mulaw.wav`);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect((await t.json(`/projects/${sid}/wavs`)).body).toEqual([
      { filename: 'alaw.wav' },
      { filename: 'clip.mp4' },
      { filename: 'mulaw.wav' },
    ]);
  });

  it('still refuses what is not audio, whatever its extension says', async () => {
    const t = setup();
    const sid = await t.create({ name: 'formats' });
    const wavAsMp4 = await t.json(`/projects/${sid}/wavs?filename=x.mp4`, raw(writeWav(0.1)));
    expect(wavAsMp4.body).toMatchObject({ status: 415, kind: 'invalid-media' });
    expect(wavAsMp4.body.message).toMatch(/not an MP4 file/);
    const mp4AsWav = await t.json(`/projects/${sid}/wavs?filename=x.wav`, raw(writeMp4(1)));
    expect(mp4AsWav.body).toMatchObject({ status: 415 });
    const gsm = writeWav(0.1);
    new DataView(gsm.buffer).setUint16(20, 0x31, true);
    expect((await t.json(`/projects/${sid}/wavs?filename=gsm.wav`, raw(gsm))).body.message).toMatch(
      /audio format 49/,
    );
    expect((await t.json(`/projects/${sid}/wavs?filename=x.mp3`, raw(writeWav(0.1)))).status).toBe(400);
  });

  it('an archive with G.711 WAVs and an MP4 imports whole', async () => {
    const t = setup();
    const zip = makeZip([
      { name: '/state', data: state },
      { name: '/wavs/', data: '' },
      { name: '/wavs/prompt.wav', data: writeG711Wav(0.3, 7), deflate: true },
      { name: '/wavs/alaw.wav', data: writeG711Wav(0.3, 6), deflate: true },
      { name: '/wavs/intro.mp4', data: writeMp4(2), deflate: true },
    ]);
    const res = await t.json('/projects/import?name=phone', raw(zip, 'application/zip'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.json(`/projects/${res.body.sid}/wavs`)).body).toEqual([
      { filename: 'alaw.wav' },
      { filename: 'intro.mp4' },
      { filename: 'prompt.wav' },
    ]);
  });
});

describe('designer media upload forms', () => {
  it("a raw body without ?filename= gets a free generated name; multipart answers the platform's [{fieldName, name}]", async () => {
    const t = setup();
    const sid = await t.create({ name: 'uploads' });
    const first = await t.json(`/projects/${sid}/wavs`, raw(writeWav(0.1)));
    expect(first.body).toEqual({ result: [{ size: writeWav(0.1).byteLength, name: 'media-1.wav' }] });
    const second = await t.json(`/projects/${sid}/wavs`, raw(writeWav(0.1)));
    expect(second.body.result[0].name).toBe('media-2.wav');
    const clip = await t.json(`/projects/${sid}/wavs`, raw(writeMp4(1), 'video/mp4'));
    expect(clip.body.result[0].name).toBe('media-1.mp4');
    const form = new FormData();
    form.append('note', 'greeting');
    form.append('file', new File([Buffer.from(writeG711Wav(0.1, 7))], 'hello.wav'));
    form.append('other', new File([Buffer.from(writeMp4(1))], 'intro.mp4'));
    const multi = await t.json(`/projects/${sid}/wavs`, { method: 'POST', body: form });
    expect(multi.body).toEqual([
      { fieldName: 'note', value: 'greeting' },
      { fieldName: 'file', name: 'hello.wav' },
      { fieldName: 'other', name: 'intro.mp4' },
    ]);
    // One bad file stores none of them.
    const bad = new FormData();
    bad.append('a', new File([Buffer.from(writeWav(0.1))], 'fine.wav'));
    bad.append('b', new File([Buffer.from('not audio at all, just text here, padded out')], 'bad.wav'));
    expect((await t.json(`/projects/${sid}/wavs`, { method: 'POST', body: bad })).status).toBe(415);
    expect((await t.json(`/projects/${sid}/wavs`)).body.map((m: { filename: string }) => m.filename)).toEqual(
      ['hello.wav', 'intro.mp4', 'media-1.mp4', 'media-1.wav', 'media-2.wav'],
    );
  });
});
