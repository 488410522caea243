import { describe, expect, it } from 'vitest';
import { parseRcml } from '../../src/rcml/parse.js';
import { app, verbs } from './helpers.js';

describe('step rendering', () => {
  it('say expands variables and keeps voice, language and loop', async () => {
    expect(await verbs('say', '', { From: '+1555' })).toEqual([
      { verb: 'Say', text: 'Hello +1555', voice: 'woman', language: 'en', loop: 2 },
    ]);
  });

  it('play uses the local media URL or the expanded remote URL', async () => {
    expect(await verbs('play', '', { name: 'intro' }, { applicationSid: 'AP1' })).toEqual([
      { verb: 'Play', url: '/visual-designer/services/projects/AP1/wavs/hello.wav' },
      { verb: 'Play', url: 'http://media.example.com/intro.wav', loop: 1 },
    ]);
  });

  it('gather menu renders the Gather with nested prompts and the no-input fall-through', async () => {
    expect(await verbs('gather-menu')).toEqual([
      {
        verb: 'Gather',
        action: 'controller?target=start.step1.handle',
        method: 'POST',
        timeout: 5,
        numDigits: 1,
        input: 'dtmf speech',
        partialResultCallback: 'http://example.com/partial',
        partialResultCallbackMethod: 'POST',
        prompts: [{ verb: 'Say', text: 'Press 1 or say sales' }],
      },
      { verb: 'Say', text: 'No input, goodbye' },
    ]);
  });

  it('gather menu handle: exact digits, speech regex, invalid re-render with the message', async () => {
    expect(await verbs('gather-menu', 'start.step1.handle', { Digits: '1' })).toEqual([
      { verb: 'Say', text: 'Done ' },
    ]);
    expect(await verbs('gather-menu', 'start.step1.handle', { Digits: '2' })).toEqual([{ verb: 'Hangup' }]);
    expect(await verbs('gather-menu', 'start.step1.handle', { SpeechResult: 'buy' })).toEqual([
      { verb: 'Say', text: 'Done ' },
    ]);
    // Speech keys match the whole result, case-sensitively; speech has no invalid message here
    // (the dtmf one is not used for speech).
    const unmatched = await verbs('gather-menu', 'start.step1.handle', { SpeechResult: 'I want to BUY' });
    expect(unmatched.map((v) => v.verb)).toEqual(['Gather', 'Say']);
    const invalid = await verbs('gather-menu', 'start.step1.handle', { Digits: '9' });
    expect(invalid[0]).toEqual({ verb: 'Say', text: 'Invalid choice' });
    expect(invalid[1]).toMatchObject({ verb: 'Gather', action: 'controller?target=start.step1.handle' });
    expect(invalid).toHaveLength(3);
  });

  it('gather collect validates with ^[userPattern]$, stores sticky + plain, skips earlier steps on retry', async () => {
    const first = await verbs('gather-collect');
    expect(first.map((v) => v.verb)).toEqual(['Say', 'Gather']);
    expect(first[1]).toMatchObject({ finishOnKey: '#', method: 'GET' });
    expect(await verbs('gather-collect', 'start.step1.handle', { Digits: '7' })).toEqual([
      { verb: 'Say', text: 'PIN 7' },
    ]);
    const retry = await verbs('gather-collect', 'start.step1.handle', { Digits: '77' });
    expect(retry.map((v) => v.verb)).toEqual(['Say', 'Gather']);
    expect(retry[0]).toEqual({ verb: 'Say', text: 'Invalid PIN' });
  });

  it('collected application variables travel in later links as sticky_', async () => {
    const result = await app('gather-collect').render('start.step1.handle', {
      Digits: '7',
      sticky_lang: 'en',
    });
    expect(result.document.verbs).toEqual([{ verb: 'Say', text: 'PIN 7' }]);
    const again = await app('gather-collect').render('start', { sticky_pin: '7' });
    expect(again.document.verbs[1]).toMatchObject({
      action: 'controller?target=start.step1.handle&sticky_pin=7',
    });
  });

  it('dial renders nouns, module URLs and the action handler only with nextModule', async () => {
    const [dial] = await verbs('dial', '', { To: '+1999', room: '7' });
    const module2 = 'controller?target=module2';
    expect(dial).toEqual({
      verb: 'Dial',
      timeout: 20,
      timeLimit: 600,
      callerId: '+1999',
      record: true,
      action: 'controller?target=start.step1.actionhandler',
      method: 'POST',
      nouns: [
        { noun: 'Number', number: '+15551234', sendDigits: 'ww1', url: module2, statusCallback: module2 },
        { noun: 'Client', name: 'alice' },
        {
          noun: 'Conference',
          name: 'room7',
          muted: false,
          beep: true,
          startConferenceOnEnter: true,
          endConferenceOnExit: false,
          maxParticipants: 10,
          waitUrl: module2,
          waitMethod: 'GET',
        },
        { noun: 'Sip', uri: 'sip:bob@example.com', statusCallback: 'http://example.com/status' },
      ],
    });
    expect(await verbs('dial', 'start.step1.actionhandler', { DialCallStatus: 'completed' })).toEqual([
      { verb: 'Say', text: 'Call completed' },
    ]);
  });

  it('hungup, reject, pause', async () => {
    expect(await verbs('hungup')).toEqual([{ verb: 'Say', text: 'Bye' }, { verb: 'Hangup' }]);
    expect(await verbs('reject')).toEqual([{ verb: 'Reject', reason: 'busy' }]);
    expect(await verbs('pause')).toEqual([{ verb: 'Pause', length: 3 }]);
  });

  it('redirect to a module or to an expanded URL', async () => {
    expect(await verbs('redirect', '', { page: 'p2' })).toEqual([
      { verb: 'Redirect', url: 'controller?target=module1', method: 'POST' },
      { verb: 'Redirect', url: 'http://example.com/p2' },
    ]);
  });

  it('record renders every attribute; its handler stores core_Recording*', async () => {
    const [plain] = await verbs('record');
    expect(plain).not.toHaveProperty('media');
    expect(await verbs('record', '', {}, { videoSupport: true })).toEqual([
      {
        verb: 'Record',
        action: 'controller?target=start.step1.actionhandler',
        method: 'POST',
        timeout: 5,
        finishOnKey: '#',
        maxLength: 60,
        transcribe: true,
        transcribeCallback: 'http://example.com/t',
        playBeep: true,
        media: 'audio_only',
      },
    ]);
    expect(await verbs('record', 'start.step1.actionhandler', { RecordingUrl: 'http://r/1.wav' })).toEqual([
      { verb: 'Say', text: 'Saved http://r/1.wav' },
    ]);
  });

  it('sms, email and fax', async () => {
    expect(await verbs('sms', '', { Body: 'hi', From: '+1', To: '+2' })).toEqual([
      {
        verb: 'Sms',
        text: 'echo: hi',
        to: '+1',
        from: '+2',
        statusCallback: 'http://example.com/sms',
        method: 'POST',
        action: 'controller?target=start.step1.actionhandler',
      },
    ]);
    expect(await verbs('sms', 'start.step1.actionhandler', { SmsStatus: 'sent' })).toEqual([
      { verb: 'Sms', text: 'status sent' },
    ]);
    expect(await verbs('email', '', { x: 'y' })).toEqual([
      {
        verb: 'Email',
        text: 'Hi',
        to: 'a@example.com',
        from: 'b@example.com',
        subject: 'Subject y',
        cc: 'c@example.com',
        bcc: 'd@example.com',
        action: 'controller?target=start.step1.actionhandler',
      },
    ]);
    expect(await verbs('fax')).toEqual([
      { verb: 'Fax', text: 'http://example.com/doc.pdf', to: '+15550000', from: '+15551111' },
    ]);
  });

  it('log renders nothing and reports the expanded message', async () => {
    const logs: string[] = [];
    const out = await verbs('log', '', { From: '+1' }, { onLog: (e) => logs.push(`${e.kind}:${e.message}`) });
    expect(out).toEqual([{ verb: 'Say', text: 'Logged' }]);
    expect(logs[0]).toBe('target:Running target: start');
    expect(logs[1]).toBe('log:caller +1');
    expect(logs[2]).toMatch(/^rcml:.*<Say>Logged<\/Say>/s);
  });

  it('ussd steps render UssdMessage / Language / UssdCollect and the collect handle', async () => {
    const out = await verbs('ussd', '', { From: '+1' });
    expect(out).toEqual([
      { verb: 'Unknown', name: 'Language', attributes: {}, text: 'en' },
      {
        verb: 'Unknown',
        name: 'UssdCollect',
        attributes: { action: 'controller?target=start.step1.handle' },
        text: '',
        children: [
          { verb: 'Unknown', name: 'UssdMessage', attributes: {}, text: 'Welcome +1' },
          { verb: 'Unknown', name: 'UssdMessage', attributes: {}, text: 'Enter a name' },
        ],
      },
    ]);
    expect(await verbs('ussd', 'start.step1.handle', { Digits: 'Bob' })).toEqual([
      { verb: 'Unknown', name: 'UssdMessage', attributes: {}, text: 'Friend: Bob' },
    ]);
  });

  it('an unknown target renders a Hangup document with the error', async () => {
    const result = await app('say').render('nowhere');
    expect(result.document.verbs).toEqual([{ verb: 'Hangup' }]);
    expect(result.error?.code).toBe('designer.unknown-module');
    const bad = await app('say').render('start.step1.handle');
    expect(bad.error?.code).toBe('designer.unknown-action');
  });

  it('every fixture renders XML the RCML parser accepts', async () => {
    for (const name of [
      'say',
      'play',
      'gather-menu',
      'gather-collect',
      'dial',
      'record',
      'sms',
      'email',
      'fax',
    ]) {
      const result = await app(name).render('', { From: '+1', To: '+2' });
      const parsed = parseRcml(result.xml);
      expect(parsed.ok, `${name}: ${JSON.stringify(parsed.diagnostics)}`).toBe(true);
      if (parsed.ok) expect(parsed.document.verbs.length).toBe(result.document.verbs.length);
    }
  });
});
