import { describe, expect, it } from 'vitest';
import { callIn, harness, rcml } from '../harness.js';

/**
 * Gather and Record as the platform's voice interpreter runs them where SPEC is silent. Each
 * test names the platform source (RestComm/Restcomm-Connect) that shows the behaviour.
 */

const actionParams = (h: ReturnType<typeof harness>) => h.requests.find((r) => r.kind === 'action')?.params;

describe('Gather', () => {
  // BaseVoiceInterpreter.finishOnKey(Tag): an empty finishOnKey is `#`.
  it('an empty finishOnKey means #', async () => {
    const h = harness({ '/g': rcml('<Gather action="/a" finishOnKey="" timeout="9"/>'), '/a': rcml('') });
    h.engine.setParty('+15550001', { digits: [{ at: 1, keys: '12#' }] });
    await callIn(h, '/g');
    expect(actionParams(h)?.Digits).toBe('12');
    // Ended by the key at 1 s, not by the 9 s timeout.
    expect(h.requests.find((r) => r.kind === 'action')?.at).toBe(Date.UTC(2024, 0, 1) + 1000);
  });

  // BaseVoiceInterpreter.FinishGathering.execute: the action gets Digits and SpeechResult.
  it('the action carries both Digits and SpeechResult, the unused one empty', async () => {
    const dtmf = harness({ '/g': rcml('<Gather action="/a" numDigits="2"/>'), '/a': rcml('') });
    dtmf.engine.setParty('+15550001', { digits: [{ at: 1, keys: '42' }] });
    await callIn(dtmf, '/g');
    expect(actionParams(dtmf)).toMatchObject({ Digits: '42', SpeechResult: '' });

    const speech = harness({ '/g': rcml('<Gather action="/a" input="speech"/>'), '/a': rcml('') });
    speech.engine.setParty('+15550001', { speech: [{ at: 1, text: 'sales please' }] });
    await callIn(speech, '/g');
    expect(actionParams(speech)).toMatchObject({ Digits: '', SpeechResult: 'sales please' });
  });
});

describe('Record', () => {
  // BaseVoiceInterpreter.FinishRecording.execute: RecordingUrl and PublicRecordingUrl.
  it('the action carries PublicRecordingUrl, the recording HTTP URL', async () => {
    const h = harness({ '/r': rcml('<Record action="/a" maxLength="3"/>'), '/a': rcml('') });
    await callIn(h, '/r');
    const params = actionParams(h)!;
    expect(params.PublicRecordingUrl).toBe(params.RecordingUrl);
    expect(params.PublicRecordingUrl).toMatch(/^https?:\/\/.*RE[0-9a-f]{32}/);
  });

  // BaseVoiceInterpreter.FinishRecording.execute: a CallStateChanged (hang-up) requests the
  // action with Digits=hangup, whenever it comes.
  it('a hang-up during the beep still requests the action with Digits=hangup', async () => {
    const h = harness({ '/r': rcml('<Record action="/a"/>'), '/a': rcml('') });
    h.engine.setParty('+15550001', { hangupAfter: 0.2 });
    await callIn(h, '/r');
    expect(actionParams(h)).toMatchObject({ Digits: 'hangup', RecordingDuration: '0' });
  });
});

describe('Record attributes', () => {
  // BaseVoiceInterpreter.CreatingRecording.execute: an empty finishOnKey, and an invalid one
  // (warning 13613), both mean `#`.
  it.each([
    ['empty', ''],
    ['invalid', 'x'],
  ])('an %s finishOnKey means #', async (_what, keys) => {
    const h = harness({
      '/r': rcml(`<Record action="/a" finishOnKey="${keys}" timeout="9"/>`),
      '/a': rcml(''),
    });
    h.engine.setParty('+15550001', {
      digits: [
        { at: 1, keys: '5' },
        { at: 2, keys: '#' },
      ],
    });
    await callIn(h, '/r');
    // `5` does not end it (as the default "any key" would); `#` does.
    expect(actionParams(h)).toMatchObject({ Digits: '#', RecordingDuration: '1.5' });
    expect(h.notifications.map((n) => n.code)).toEqual(keys === '' ? [] : ['13613']);
  });

  // BaseVoiceInterpreter.CreatingRecording.execute: an invalid timeout (or media) is 13612.
  it('an invalid timeout is warning 13612 and the default 5 s applies', async () => {
    const h = harness({ '/r': rcml('<Record action="/a" timeout="soon"/>'), '/a': rcml('') });
    await callIn(h, '/r');
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['13612', 1]]);
    expect(actionParams(h)?.RecordingDuration).toBe('5');
  });
});

describe('Gather prompts and partial results', () => {
  // BaseVoiceInterpreter.ProcessingGatherChildren: a nested Say reports 13321 (voice) and
  // 13322 (loop), not the top-level Say codes.
  it('a Say nested in Gather with a bad voice or loop is 13321 / 13322', async () => {
    const h = harness({
      '/g': rcml('<Gather><Say voice="robot" loop="x">Hi</Say></Gather><Say voice="robot">x</Say>'),
    });
    await callIn(h, '/g');
    expect(h.notifications.map((n) => n.code)).toEqual(['13321', '13322', '13511']);
  });

  // BaseVoiceInterpreter.ProcessingGatherChildren: a Play URL that is not a URI is error 13325
  // and the interpreter stops.
  it('a bad Play URL in Gather is error 13325 and the call stops', async () => {
    const h = harness({ '/g': rcml('<Gather><Play>http://bad host/x.wav</Play></Gather><Say>after</Say>') });
    const call = await callIn(h, '/g');
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['13325', 0]]);
    expect(h.verbs(call.sid)).toEqual(['Gather']);
    expect(call.status).toBe('completed');
  });

  // BaseVoiceInterpreter.PartialGathering.execute: partialResultCallback gets the voice
  // parameters plus UnstableSpeechResult while recognition runs.
  it('partialResultCallback receives UnstableSpeechResult as the party speaks', async () => {
    const h = harness({
      '/g': rcml('<Gather input="speech" action="/a" partialResultCallback="/p"/>'),
      '/a': rcml(''),
      '/p': rcml(''),
    });
    h.engine.setParty('+15550001', { speech: [{ at: 1, text: 'sales please' }] });
    const call = await callIn(h, '/g');
    const partials = h.requests.filter((r) => r.kind === 'partial-result');
    expect(partials.map((r) => [r.url, r.method, r.params.UnstableSpeechResult])).toEqual([
      ['http://app.test/p', 'POST', 'sales'],
      ['http://app.test/p', 'POST', 'sales please'],
    ]);
    expect(partials[0].params.CallSid).toBe(call.sid);
    expect(actionParams(h)?.SpeechResult).toBe('sales please');
  });
});

describe('Email and Fax', () => {
  // VoiceInterpreter.onTagMessage sends <Email> to sendingEmail and <Fax> to caching, then
  // faxing (BaseVoiceInterpreter.SendingEmail, Faxing): both run, as Sms does.
  it('Email writes a message record and requests its action with EmailSid and EmailStatus', async () => {
    const h = harness({
      '/e': rcml(
        '<Email to="ops@example.com" from="ivr@example.com" subject="Hi" action="/a">Call from $From</Email><Say>not reached</Say>',
      ),
      '/a': rcml('<Say>after</Say>'),
    });
    const call = await callIn(h, '/e');
    expect(h.messages).toEqual([
      expect.objectContaining({
        kind: 'email',
        from: 'ivr@example.com',
        to: 'ops@example.com',
        body: 'Call from $From',
        status: 'sent',
        callSid: call.sid,
      }),
    ]);
    const sid = h.messages[0].sid;
    expect(sid).toMatch(/^EM[0-9a-f]{32}$/);
    expect(h.requests.find((r) => r.kind === 'action')?.params).toMatchObject({
      EmailSid: sid,
      EmailStatus: 'sent',
    });
    expect(h.verbs(call.sid)).toEqual(['Email', 'Say']);
  });

  // BaseVoiceInterpreter.SendingEmail: no `from` or `to` attribute, no mail.
  it('an Email without to is warning 14110 and a failed record; the next verb runs', async () => {
    const h = harness({ '/e': rcml('<Email from="ivr@example.com">x</Email><Say>next</Say>') });
    const call = await callIn(h, '/e');
    expect(h.messages.map((m) => m.status)).toEqual(['failed']);
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['14110', 1]]);
    expect(h.verbs(call.sid)).toEqual(['Email', 'Say']);
  });

  // BaseVoiceInterpreter.Faxing: from the called number to the caller by default, the document
  // URL resolved against the RCML document.
  it('Fax sends the document and requests its action with FaxSid and FaxStatus', async () => {
    const h = harness({ '/f': rcml('<Fax action="/a">/doc.pdf</Fax>'), '/a': rcml('') });
    await callIn(h, '/f', '+15550001', '+15559999');
    expect(h.messages).toEqual([
      expect.objectContaining({
        kind: 'fax',
        from: '+15559999',
        to: '+15550001',
        body: 'http://app.test/doc.pdf',
      }),
    ]);
    expect(h.requests.find((r) => r.kind === 'action')?.params).toMatchObject({
      FaxSid: h.messages[0].sid,
      FaxStatus: 'sent',
    });
  });
});
