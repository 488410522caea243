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
