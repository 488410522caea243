import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wavProblem } from '../../../src/api/designer/wav-check.js';
import { writeWav } from '../../../src/engine/wav.js';
import { setup } from './harness.js';

const wav = writeWav(0.1); // 844 bytes
const raw = (bytes: Uint8Array): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'audio/wav' },
  body: bytes as unknown as RequestInit['body'],
});

describe('designer media', () => {
  it('uploads a WAV (raw or multipart), lists, plays with ranges and deletes it', async () => {
    const t = setup();
    const sid = await t.create({ name: 'media' });
    expect((await t.json(`/projects/${sid}/wavs?filename=hello.wav`, raw(wav))).body).toEqual({
      result: [{ size: wav.byteLength, name: 'hello.wav' }],
    });
    const form = new FormData();
    form.set('file', new File([Buffer.from(wav)], 'second.wav', { type: 'audio/wav' }));
    expect((await t.json(`/projects/${sid}/wavs`, { method: 'POST', body: form })).status).toBe(200);
    expect((await t.json(`/projects/${sid}/wavs`)).body).toEqual([
      { filename: 'hello.wav' },
      { filename: 'second.wav' },
    ]);

    for (const path of [`/projects/${sid}/media/hello.wav`, `/projects/${sid}/wavs/hello.wav`]) {
      const whole = await t.request(path);
      expect(whole.headers.get('content-type')).toBe('audio/wav');
      expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="hello\.wav"/);
      expect(new Uint8Array(await whole.arrayBuffer())).toEqual(wav);
    }
    const part = await t.request(`/projects/${sid}/media/hello.wav`, { headers: { Range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-3/${wav.byteLength}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('ascii')).toBe('RIFF');
    const beyond = await t.request(`/projects/${sid}/media/hello.wav`, {
      headers: { Range: 'bytes=99999-' },
    });
    expect(beyond.status).toBe(416);

    expect((await t.json(`/projects/${sid}/wavs?filename=hello.wav`, { method: 'DELETE' })).status).toBe(200);
    expect((await t.json(`/projects/${sid}/media/hello.wav`)).status).toBe(404);
    expect((await t.json(`/projects/${sid}/wavs?filename=hello.wav`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses what is not RIFF/WAVE PCM, truncated files and oversize uploads', async () => {
    const t = setup({ mediaMaxBytes: 2000 });
    const sid = await t.create({ name: 'media' });
    const upload = (bytes: Uint8Array) => t.json(`/projects/${sid}/wavs?filename=a.wav`, raw(bytes));
    const notWav = await upload(new TextEncoder().encode('hello, this is text, not audio'));
    expect(notWav.body).toMatchObject({ status: 415, code: 20415, kind: 'invalid-media' });
    expect(notWav.body.message).toMatch(/too short for a WAV file/);
    const truncated = await upload(wav.slice(0, 300));
    expect(truncated.body.message).toMatch(/exceeds the file/);
    const float = wav.slice();
    float[20] = 3; // IEEE float, not PCM
    expect((await upload(float)).body.message).toMatch(/audio format 3 is not linear PCM/);
    const big = await upload(writeWav(1));
    expect(big.body).toMatchObject({ status: 413, code: 20413, kind: 'body-too-large' });
    expect((await t.json(`/projects/${sid}/wavs`)).body).toEqual([]);
    expect(t.errors).toEqual([]);
  });

  it('refuses file names that are paths, hidden, controlled or not .wav', async () => {
    const t = setup();
    const sid = await t.create({ name: 'media' });
    for (const name of [
      '../x.wav',
      'a/b.wav',
      'a\\b.wav',
      '..wav',
      '.hidden.wav',
      'x\u0000.wav',
      'x\n.wav',
      'x.mp3',
      '',
    ]) {
      const res = await t.json(`/projects/${sid}/wavs?filename=${encodeURIComponent(name)}`, raw(wav));
      expect([name, res.status, res.body.parameter]).toEqual([name, 400, 'filename']);
    }
    const form = new FormData();
    form.set('file', new File([Buffer.from(wav)], '../../etc/evil.wav'));
    expect((await t.json(`/projects/${sid}/wavs`, { method: 'POST', body: form })).status).toBe(400);
    expect((await t.json(`/projects/${sid}/wavs`)).body).toEqual([]);
  });

  it('a play step of a local file renders the URL that serves it', async () => {
    const t = setup();
    const sid = await t.create({ name: 'media' });
    await t.json(`/projects/${sid}/wavs?filename=greeting.wav`, raw(wav));
    const structure = (await t.json(`/projects/${sid}`)).body;
    structure.nodes[0].steps = [
      {
        kind: 'play',
        name: 'step2',
        label: 'play',
        title: 'play',
        playType: 'local',
        local: { wavLocalFilename: 'greeting.wav' },
      },
    ];
    await t.json(`/projects/${sid}`, t.send(structure, 'PUT'));
    await t.json(`/projects/${sid}/build`, { method: 'POST' });
    const xml = await (await t.request(`/apps/${sid}/controller`)).text();
    const url = /<Play>([^<]+)<\/Play>/.exec(xml)?.[1] as string;
    expect(url).toBe(`/visual-designer/services/projects/${sid}/wavs/greeting.wav`);
    const served = await t.request(url.replace('/visual-designer/services', ''));
    expect(served.status).toBe(200);
  });

  it('the WAV check never throws, refuses any cut header and anything not starting RIFF/WAVE', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(wav.byteLength), (junk, cut) => {
        const spliced = new Uint8Array([...wav.slice(0, cut), ...junk]);
        const accepted = wavProblem(spliced) === undefined;
        if (accepted) expect(Buffer.from(spliced.subarray(0, 4)).toString('ascii')).toBe('RIFF');
        // The data chunk header ends at byte 44: any shorter prefix lacks it.
        if (cut < 44 && junk.length === 0) expect(accepted).toBe(false);
        const head = Buffer.from(junk.subarray(0, 4)).toString('latin1');
        if (head !== 'RIFF') expect(wavProblem(junk)).toBeDefined();
      }),
    );
    expect(wavProblem(wav)).toBeUndefined();
  });
});
