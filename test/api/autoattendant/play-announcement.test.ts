import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/api/server.js';
import { createEngine } from '../../../src/engine/engine.js';
import { writeWav } from '../../../src/engine/wav.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { sequentialSids } from '../../../src/store/sid.js';
import { ACCOUNT_A, account } from '../../store/fixtures.js';
import { AUTH_A } from '../harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('an announcement played from RCML', () => {
  it('plays its uploaded WAV for its real length, fetched from fileUri over HTTP, and says its body', async () => {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    const server = await startServer({
      store,
      host: '127.0.0.1',
      port: 0,
      enterprise: { sids: sequentialSids(), scryptCost: 1024 },
    });
    closers.push(server.close);
    const api = async (method: string, path: string, body?: unknown) => {
      const init: RequestInit = { method, headers: { Authorization: AUTH_A } };
      if (body instanceof FormData) init.body = body;
      else if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
      }
      const res = await fetch(server.url + path, init);
      return (await res.json()) as { data: Record<string, string> };
    };
    const enterpriseSid = (await api('POST', '/enterprises', { name: 'Acme' })).data.sid;
    const play = (
      await api('POST', '/autoattendant/announcement', { name: 'Hold', enterpriseSid, type: 'play' })
    ).data;
    const form = new FormData();
    form.set('file', new Blob([writeWav(2.5).slice().buffer]), 'hold.wav');
    const uploaded = (await api('POST', `/autoattendant/file/announcement/${play.sid}`, form)).data;
    const say = (
      await api('POST', '/autoattendant/announcement', {
        name: 'Hi',
        enterpriseSid,
        type: 'say',
        body: 'Welcome to Acme',
        language: 'en-gb',
        voice: 'Woman',
      })
    ).data;

    const verbs: Array<{ verb: string; at: number }> = [];
    const media: Array<{ url: string; status: number }> = [];
    const engine = createEngine({
      seed: 1,
      onEvent: (e) => {
        if (e.type === 'verb') verbs.push({ verb: e.verb, at: e.at });
        if (e.type === 'response' && e.kind === 'media') media.push({ url: e.url, status: e.status });
      },
    });
    closers.push(() => engine.close());
    // The RCML an Auto Attendant menu would answer: the audio announcement, then the spoken one.
    const rcml =
      `<Response><Play>${server.url}${uploaded.fileUri}</Play>` +
      `<Say voice="${say.voice.toLowerCase()}" language="${say.language}">${say.body}</Say></Response>`;
    engine.registerHandler('http://app.test/announce', () => ({
      status: 200,
      contentType: 'text/xml',
      body: rcml,
    }));
    engine.setNumber('+15550100', { voiceUrl: 'http://app.test/announce' });
    const call = engine.incomingCall('+15551111', '+15550100');
    await engine.runUntilIdle();
    expect(engine.getCall(call.sid)?.status).toBe('completed');
    expect(media).toEqual([
      { url: `${server.url}/autoattendant/file/announcement/${play.sid}/hold.wav`, status: 200 },
    ]);
    expect(verbs.map((v) => v.verb)).toEqual(['Play', 'Say']);
    // The Play lasted the WAV's 2.5 s (not the 5 s used when media cannot be read).
    expect(verbs[1].at - verbs[0].at).toBe(2500);
  });
});
