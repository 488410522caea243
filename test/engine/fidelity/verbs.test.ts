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
