import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpeechCache, speechKey } from '../../../src/telephony/tts/cache.js';
import { espeakVoice } from '../../../src/telephony/tts/voices.js';

const request = (text: string) => ({ text, voice: 'woman', language: 'en' });

describe('speech cache', () => {
  it('synthesises a text asked for by several calls at once once, then serves it from memory and disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-tts-cache-'));
    let made = 0;
    const make = async () => {
      made++;
      return new Int16Array(800).fill(7);
    };
    const cache = new SpeechCache(dir);
    const [a, b] = await Promise.all([cache.get(request('hi'), make), cache.get(request('hi'), make)]);
    expect(made).toBe(1);
    expect(a).toBe(b);
    expect(readdirSync(dir)).toEqual([`${speechKey(request('hi'))}.pcm`]);
    // A new process (a new cache object) reads the disk instead of synthesising again.
    const again = await new SpeechCache(dir).get(request('hi'), make);
    expect(made).toBe(1);
    expect(again).toEqual(a);
  });

  it('keys by voice, language and text, and keeps the disk under its cap', async () => {
    expect(speechKey(request('a'))).not.toBe(speechKey({ ...request('a'), voice: 'man' }));
    expect(speechKey(request('a'))).not.toBe(speechKey({ ...request('a'), language: 'fr' }));
    const dir = mkdtempSync(join(tmpdir(), 'rcml-tts-cache-'));
    const cache = new SpeechCache(dir, 8000);
    for (let i = 0; i < 10; i++) await cache.get(request(`text ${i}`), async () => new Int16Array(1000));
    const files = readdirSync(dir).filter((f) => f.endsWith('.pcm'));
    expect(files.length * 2000).toBeLessThanOrEqual(8000);
  });

  it('maps RCML languages and voices to espeak-ng voices', () => {
    const known = new Set(['en-us', 'en-gb', 'es', 'es-419', 'fr-fr', 'de', 'cmn']);
    expect(espeakVoice({ text: '', voice: 'woman', language: 'en' }, known)).toBe('en-us+f3');
    expect(espeakVoice({ text: '', voice: 'man', language: 'en-GB' }, known)).toBe('en-gb+m3');
    expect(espeakVoice({ text: '', voice: 'man', language: 'es-MX' }, known)).toBe('es-419+m3');
    expect(espeakVoice({ text: '', voice: 'man', language: 'de-AT' }, known)).toBe('de+m3');
    expect(espeakVoice({ text: '', voice: 'man', language: 'zh-CN' }, known)).toBe('cmn+m3');
    expect(espeakVoice({ text: '', voice: 'man', language: 'xx' }, known)).toBe('en-us+m3');
  });
});
