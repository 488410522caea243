import { describe, expect, it } from 'vitest';
import { writeWav } from '../../../src/engine/wav.js';
import { AUTH_B, BASE, setupEnterprise, T0 } from '../enterprise/harness.js';

async function withEnterprise(options: { maxAudioBytes?: number } = {}) {
  const env = await setupEnterprise(options);
  const enterpriseSid = await env.enterprise();
  const create = (over: Record<string, unknown> = {}, auth?: string) =>
    env.send(
      'POST',
      '/autoattendant/announcement',
      {
        name: 'Welcome',
        enterpriseSid,
        type: 'say',
        body: 'Welcome to Acme',
        language: 'en',
        voice: 'Woman',
        ...over,
      },
      { auth },
    );
  const upload = (sid: string, file: Blob | string | undefined, filename = 'hello.wav', field = 'file') => {
    const form = new FormData();
    if (file !== undefined) {
      if (typeof file === 'string') form.set(field, file);
      else form.set(field, file, filename);
    }
    return env.send('POST', `/autoattendant/file/announcement/${sid}`, undefined, { raw: form });
  };
  return { ...env, enterpriseSid, create, upload };
}

const wavBlob = (bytes: Uint8Array) => new Blob([bytes.slice().buffer], { type: 'audio/wav' });

describe('create announcement', () => {
  it('answers a say announcement in the envelope', async () => {
    const { create, enterpriseSid } = await withEnterprise();
    const r = await create({ description: 'front door' });
    const sid = r.body.data.sid;
    expect(sid).toMatch(/^AN[0-9a-f]{32}$/);
    expect(r.body).toEqual({
      code: 200,
      message: 'OK',
      data: {
        sid,
        name: 'Welcome',
        description: 'front door',
        accountEmail: 'admin@acme.test',
        dateCreated: '2024-03-05T12:00:00+0000',
        dateUpdated: '2024-03-05T12:00:00+0000',
        uri: `/autoattendant/announcement/search/${sid}`,
        enterpriseSid,
        type: 'say',
        body: 'Welcome to Acme',
        language: 'en',
        voice: 'Woman',
        fileUri: '',
      },
    });
  });

  it('answers 520 for a missing or unknown type, 519 for missing say fields', async () => {
    const { create } = await withEnterprise();
    const type = await create({ type: 'sing' });
    expect(type.status).toBe(409);
    expect(type.body).toMatchObject({ errorCode: '520', message: 'Announcement Type Not Found' });
    expect(type.body.data.type).toBe('sing');
    expect((await create({ type: undefined })).body.errorCode).toBe('520');
    const noBody = await create({ body: '  ' });
    expect(noBody.body).toMatchObject({
      errorCode: '519',
      message: 'Say Required Parameters Missing: missing body',
    });
    expect((await create({ language: undefined })).body.message).toBe(
      'Say Required Parameters Missing: missing language',
    );
  });

  it('answers 521 for an unknown language and 522 for an unknown voice; blank voice is Man', async () => {
    const { create } = await withEnterprise();
    expect((await create({ language: 'klingon' })).body).toMatchObject({
      errorCode: '521',
      message: 'Announcement Language Not Found: klingon',
    });
    expect((await create({ voice: 'Robot' })).body).toMatchObject({ errorCode: '522' });
    expect((await create({ voice: '' })).body.data.voice).toBe('Man');
    expect((await create({ voice: undefined, language: 'EN-GB' })).body.data).toMatchObject({
      voice: 'Man',
      language: 'EN-GB',
    });
  });

  it('creates a play announcement without say fields', async () => {
    const { create } = await withEnterprise();
    const r = await create({ type: 'play', body: undefined, language: undefined, voice: undefined });
    expect(r.body.data).toMatchObject({ type: 'play', body: '', language: '', voice: '', fileUri: '' });
  });

  it('answers 467 for unknown or another account’s enterprise and 490 without an Auto Attendant system', async () => {
    const { create, enterprise } = await withEnterprise();
    expect((await create({ enterpriseSid: `EN${'3'.repeat(32)}` })).body.errorCode).toBe('467');
    const foreign = await enterprise({}, AUTH_B);
    expect((await create({ enterpriseSid: foreign })).body.errorCode).toBe('467');
    const bare = await enterprise({ name: 'No AA', autoAttendant: false });
    expect((await create({ enterpriseSid: bare })).body).toMatchObject({
      errorCode: '490',
      message: 'Auto Attendant System Not Found',
    });
  });

  it('refuses a missing name with 400', async () => {
    const { create } = await withEnterprise();
    expect((await create({ name: undefined })).body).toMatchObject({
      errorCode: 'invalid-parameter',
      message: 'name: is required',
    });
  });
});

describe('get, update and search announcements', () => {
  it('gets and updates, re-checking the say fields; unknown is 500', async () => {
    const { create, send, clock, enterprise } = await withEnterprise();
    const a = (await create()).body.data;
    expect((await send('GET', `/autoattendant/announcement/search/${a.sid}`)).body.data).toEqual(a);
    clock.now = T0 + 1000;
    const r = await send('PUT', `/autoattendant/announcement/${a.sid}`, {
      body: 'Hello again',
      voice: 'man',
    });
    expect(r.body.data).toMatchObject({
      body: 'Hello again',
      voice: 'Man',
      language: 'en',
      dateUpdated: '2024-03-05T12:00:01+0000',
    });
    const put = (fields: Record<string, unknown>) =>
      send('PUT', `/autoattendant/announcement/${a.sid}`, fields);
    expect((await put({ language: 'xx' })).body.errorCode).toBe('521');
    expect((await put({ voice: 'Child' })).body.errorCode).toBe('522');
    expect((await put({ body: '' })).body.errorCode).toBe('519');
    expect((await put({ type: 'video' })).body.errorCode).toBe('520');
    expect((await put({ enterpriseSid: `EN${'4'.repeat(32)}` })).body.errorCode).toBe('467');
    expect((await put({ enterpriseSid: await enterprise({ autoAttendant: false }) })).body.errorCode).toBe(
      '490',
    );
    expect((await put({ type: 'play' })).body.data).toMatchObject({ type: 'play', body: '' });
    const missing = await send('GET', `/autoattendant/announcement/search/AN${'0'.repeat(32)}`);
    expect(missing).toEqual({
      status: 409,
      body: { errorCode: '500', message: 'Announcement not found', data: { sid: `AN${'0'.repeat(32)}` } },
    });
    expect(
      (await send('PUT', `/autoattendant/announcement/AN${'0'.repeat(32)}`, { name: 'x' })).body.errorCode,
    ).toBe('500');
    expect(
      (await send('GET', `/autoattendant/announcement/search/${a.sid}`, undefined, { auth: AUTH_B })).body
        .errorCode,
    ).toBe('500');
  });

  it('searches by partial name, enterprise and dates, sorted by name or dateCreated', async () => {
    const { create, send, clock, enterprise } = await withEnterprise();
    const second = await enterprise({ name: 'Beta' });
    for (const [i, [name, ent]] of [
      ['Main menu', undefined],
      ['Closed', undefined],
      ['Menu two', second],
    ].entries()) {
      clock.now = Date.UTC(2024, 2, 10 + i);
      await create({ name, ...(ent ? { enterpriseSid: ent } : {}) });
    }
    const names = async (q: string) =>
      (await send('GET', `/autoattendant/announcement/search?${q}`)).body.data.result.map(
        (a: { name: string }) => a.name,
      );
    expect(await names('name=menu')).toEqual(['Main menu', 'Menu two']);
    expect(await names(`enterpriseSid=${second}`)).toEqual(['Menu two']);
    expect(await names('SortBy=name:asc')).toEqual(['Closed', 'Main menu', 'Menu two']);
    expect(await names('SortBy=dateCreated:desc')).toEqual(['Menu two', 'Closed', 'Main menu']);
    expect(await names('startTime=2024-03-11&endTime=2024-03-11')).toEqual(['Closed']);
    expect((await send('GET', '/autoattendant/announcement/search?SortBy=email:asc')).status).toBe(400);
    expect(
      (await send('GET', '/autoattendant/announcement/search', undefined, { auth: AUTH_B })).body.data.total,
    ).toBe(0);
  });
});

describe('announcement audio', () => {
  it('takes a PCM WAV, sanitises its name and serves it at fileUri without credentials', async () => {
    const { create, upload, app } = await withEnterprise();
    const a = (await create({ type: 'play' })).body.data;
    const wav = writeWav(0.5);
    const r = await upload(a.sid, wavBlob(wav), '../../etc/My Greeting (final).WAV');
    expect(r.status).toBe(200);
    expect(r.body.data.fileUri).toBe(`/autoattendant/file/announcement/${a.sid}/My_Greeting_final.wav`);
    const res = await app.fetch(new Request(BASE + r.body.data.fileUri));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('audio/wav');
    // A download: a browser opening it saves the file, and never sniffs it as a page.
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="My_Greeting_final.wav"; filename*=UTF-8''My_Greeting_final.wav`,
    );
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(wav);
    const wrongName = await app.fetch(
      new Request(`${BASE}/autoattendant/file/announcement/${a.sid}/other.wav`),
    );
    expect(wrongName.status).toBe(409);
    const got = await create({ type: 'play' });
    expect(got.body.data.fileUri).toBe('');
  });

  it('answers 504 for bytes that are not a WAV the platform plays, naming the reason', async () => {
    const { create, upload } = await withEnterprise();
    const a = (await create({ type: 'play' })).body.data;
    const good = writeWav(0.1);
    const float = good.slice();
    new DataView(float.buffer).setUint16(20, 3, true);
    const wideAlaw = good.slice();
    new DataView(wideAlaw.buffer).setUint16(20, 6, true);
    const truncated = good.slice();
    new DataView(truncated.buffer).setUint32(40, 1_000_000, true);
    const cases: Array<[Blob, string]> = [
      [new Blob(['ID3 this is an mp3']), 'too short'],
      [new Blob([`RIFF${'x'.repeat(60)}`]), 'RIFF'],
      [wavBlob(float), 'audio format 3 is not linear PCM (1), A-law (6) or µ-law (7)'],
      [wavBlob(wideAlaw), '16 bits per sample (G.711 is 8)'],
      [wavBlob(truncated), "chunk 'data'"],
    ];
    for (const [blob, reason] of cases) {
      const r = await upload(a.sid, blob);
      expect(r.status).toBe(409);
      expect(r.body.errorCode).toBe('504');
      expect(r.body.message).toContain('Error in uploading audio file: not a WAV file the platform plays');
      expect(r.body.message).toContain(reason);
      expect(r.body.data).toEqual({ sid: a.sid });
    }
  });

  it('answers 504 without a file field, for a non-multipart body and over the size limit; 500 for an unknown sid', async () => {
    const { create, upload, send } = await withEnterprise({ maxAudioBytes: 2000 });
    const a = (await create({ type: 'play' })).body.data;
    expect((await upload(a.sid, undefined)).body.message).toContain("multipart field 'file' is required");
    expect((await upload(a.sid, 'just text')).body.errorCode).toBe('504');
    const json = await send('POST', `/autoattendant/file/announcement/${a.sid}`, { file: 'x' });
    expect(json.body.errorCode).toBe('504');
    const big = await upload(a.sid, wavBlob(writeWav(1)));
    expect(big.body).toMatchObject({
      errorCode: '504',
      message: 'Error in uploading audio file: file exceeds 2000 bytes',
    });
    const huge = await upload(a.sid, wavBlob(writeWav(10)));
    expect(huge.body.errorCode).toBe('504');
    expect((await upload(`AN${'5'.repeat(32)}`, wavBlob(writeWav(0.1)))).body.errorCode).toBe('500');
  });
});
