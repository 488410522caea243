/**
 * Every verb and noun: attributes parse to typed values, defaults are what the reference says,
 * and every invalid value is a warning with the platform code, dropping the value.
 */
import { describe, expect, it } from 'vitest';
import {
  conferenceDefaults,
  dialDefaults,
  enqueueDefaults,
  gatherDefaults,
  legNounDefaults,
  type ParseResult,
  parseRcml,
  pauseDefaults,
  playDefaults,
  queueDefaults,
  recordDefaults,
  redirectDefaults,
  rejectDefaults,
  sayDefaults,
  smsDefaults,
} from '../../../src/rcml/index.js';

function document(result: ParseResult) {
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.document;
}

/** Wraps `element` so that the element under test starts at line 2, column 3. */
function parseIn(element: string) {
  return parseRcml(`<Response>\n  ${element}\n</Response>`);
}

describe('defaults', () => {
  it('match the RCML reference', () => {
    expect(sayDefaults).toEqual({ voice: 'man', language: 'en', loop: 1 });
    expect(playDefaults).toEqual({ loop: 1 });
    expect(pauseDefaults).toEqual({ length: 1 });
    expect(gatherDefaults).toEqual({
      method: 'POST',
      timeout: 5,
      finishOnKey: '#',
      input: 'dtmf',
      language: 'en-US',
      partialResultCallbackMethod: 'POST',
      actionOnEmptyResult: false,
    });
    expect(recordDefaults).toEqual({
      method: 'POST',
      timeout: 5,
      finishOnKey: '1234567890*#',
      maxLength: 3600,
      playBeep: true,
      transcribe: false,
      media: 'audio_only',
    });
    expect(dialDefaults).toEqual({ method: 'POST', timeout: 30, timeLimit: 14400, record: false });
    expect(legNounDefaults).toEqual({ method: 'POST', statusCallbackMethod: 'POST' });
    expect(conferenceDefaults).toEqual({
      muted: false,
      beep: true,
      startConferenceOnEnter: true,
      endConferenceOnExit: false,
      waitMethod: 'POST',
      maxParticipants: 40,
    });
    expect(queueDefaults).toEqual({
      method: 'POST',
      waitUrlMethod: 'POST',
      joinUrlMethod: 'POST',
      rejoin: false,
    });
    expect(enqueueDefaults).toEqual(queueDefaults);
    expect(redirectDefaults).toEqual({ method: 'POST' });
    expect(rejectDefaults).toEqual({ reason: 'rejected' });
    expect(smsDefaults).toEqual({ method: 'POST' });
  });

  it('leave unset attributes undefined in the model', () => {
    const verbs = document(parseIn('<Say>hi</Say><Gather/><Record/><Dial>1</Dial>')).verbs;
    expect(verbs[0]).toEqual({ verb: 'Say', text: 'hi', pos: { line: 2, column: 3 } });
    expect(Object.keys(verbs[1])).toEqual(['verb', 'prompts', 'pos']);
    expect(Object.keys(verbs[2])).toEqual(['verb', 'pos']);
  });
});

describe('typed attribute values', () => {
  it.each([
    ['<Say voice="woman" language="fr" loop="0">x</Say>', { voice: 'woman', language: 'fr', loop: 0 }],
    ['<Play loop=" 3 ">a.wav</Play>', { loop: 3, url: 'a.wav' }],
    ['<Pause length="0"/>', { length: 0 }],
    [
      '<Gather action="/a" method="get" timeout="9" finishOnKey="" numDigits="4" input="speech dtmf" hints="a,b" actionOnEmptyResult="TRUE"/>',
      {
        action: '/a',
        method: 'GET',
        timeout: 9,
        finishOnKey: '',
        numDigits: 4,
        input: 'dtmf speech',
        hints: 'a,b',
        actionOnEmptyResult: true,
      },
    ],
    [
      '<Record finishOnKey="-1" maxLength="60" playBeep="false" transcribe="true" media="audio_video"/>',
      { finishOnKey: '-1', maxLength: 60, playBeep: false, transcribe: true, media: 'audio_video' },
    ],
    [
      '<Dial timeout="10" timeLimit="60" callerId="+15551234567" record="true">1</Dial>',
      { timeout: 10, timeLimit: 60, callerId: '+15551234567', record: true },
    ],
    [
      '<Enqueue rejoin="true" waitUrlMethod="GET">q</Enqueue>',
      { name: 'q', rejoin: true, waitUrlMethod: 'GET' },
    ],
    ['<Redirect method="GET">/x</Redirect>', { url: '/x', method: 'GET' }],
    ['<Reject reason="busy"/>', { reason: 'busy' }],
    ['<Sms to="+1" from="+2" method="GET">hi</Sms>', { text: 'hi', to: '+1', from: '+2', method: 'GET' }],
  ])('%s', (xml, expected) => {
    expect(document(parseIn(xml)).verbs[0]).toMatchObject(expected);
  });
});

/** [element with the bad attribute value, code]: the bad attribute always starts at column 3 + offset. */
const INVALID: Array<[string, string]> = [
  ['<Say voice="robot">x</Say>', '13511'],
  ['<Say loop="-1">x</Say>', '13510'],
  ['<Say loop="once">x</Say>', '13510'],
  ['<Play loop="1.5">a.wav</Play>', '13410'],
  ['<Pause length="abc"/>', '13910'],
  ['<Gather method="PUT"/>', '14104'],
  ['<Gather timeout="0"/>', '13313'],
  ['<Gather finishOnKey="##"/>', '13310'],
  ['<Gather numDigits="0"/>', '13314'],
  ['<Gather input="video"/>', 'rcml.invalid-attribute'],
  ['<Gather actionOnEmptyResult="yes"/>', 'rcml.invalid-attribute'],
  ['<Gather partialResultCallbackMethod="PUT"/>', 'rcml.invalid-attribute'],
  ['<Record method="DELETE"/>', '13610'],
  ['<Record maxLength="-5"/>', '13612'],
  ['<Record timeout="x"/>', '13612'],
  ['<Record playBeep="1"/>', 'rcml.invalid-attribute'],
  ['<Record media="hologram"/>', '13612'],
  ['<Dial method="PATCH">1</Dial>', '13210'],
  ['<Dial timeout="soon">1</Dial>', '13212'],
  ['<Dial callerId="bob">1</Dial>', '13214'],
  ['<Dial timeLimit="0">1</Dial>', '13216'],
  ['<Dial record="maybe">1</Dial>', 'rcml.invalid-attribute'],
  ['<Enqueue rejoin="sometimes">q</Enqueue>', 'rcml.invalid-attribute'],
  ['<Enqueue method="PUT">q</Enqueue>', 'rcml.invalid-attribute'],
  ['<Redirect method="PUT">/x</Redirect>', '13710'],
  ['<Reject reason="nope"/>', 'rcml.invalid-attribute'],
  ['<Sms method="PUT">hi</Sms>', '14104'],
];

describe('invalid attribute values', () => {
  it('an invalid Record finishOnKey is warning 13613 and stands for #', () => {
    const result = parseIn('<Record finishOnKey="abc"/>');
    expect(document(result).verbs[0]).toMatchObject({ finishOnKey: '#' });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: '13613', message: expect.stringContaining('"#" is used') }),
    ]);
  });

  it.each(INVALID)('%s -> warning %s, default used', (xml, code) => {
    const result = parseIn(xml);
    const verb = document(result).verbs[0] as unknown as { [key: string]: unknown };
    const attrName = /^<\w+ (\w+)=/.exec(xml)![1];
    expect(verb[attrName]).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        code,
        severity: 'warning',
        message: expect.stringContaining(`invalid ${attrName}=`),
        line: 2,
        column: 3 + xml.indexOf(attrName),
        path: `${verb.verb}@${attrName}`,
      },
    ]);
  });

  it.each([
    ['<Number statusCallbackEvent="initiated,hungup">1</Number>', 'statusCallbackEvent'],
    ['<Number sendDigits="12x">1</Number>', 'sendDigits'],
    ['<Client method="PUT">a</Client>', 'method'],
    ['<Sip statusCallbackMethod="x">sip:a@b</Sip>', 'statusCallbackMethod'],
    ['<Conference waitMethod="PUT">room</Conference>', 'waitMethod'],
    ['<Conference maxParticipants="none">room</Conference>', 'maxParticipants'],
    ['<Conference beep="loud">room</Conference>', 'beep'],
    ['<Queue rejoin="x">q</Queue>', 'rejoin'],
  ])('noun %s -> warning on %s', (noun, attrName) => {
    const result = parseRcml(`<Response><Dial>\n${noun}</Dial></Response>`);
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        line: 2,
        column: 1 + noun.indexOf(attrName),
        code: attrName === 'waitMethod' ? '13234' : 'rcml.invalid-attribute',
      }),
    ]);
  });

  it('parses comma- or space-separated status callback events', () => {
    const dial = document(
      parseRcml(
        '<Response><Dial><Number statusCallbackEvent="ringing answered,Completed">1</Number></Dial></Response>',
      ),
    ).verbs[0];
    expect(dial).toMatchObject({ nouns: [{ statusCallbackEvent: ['ringing', 'answered', 'completed'] }] });
  });

  it('warns about unknown attributes with their position', () => {
    const result = parseIn('<Hangup now="yes"/>');
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'rcml.unknown-attribute', line: 2, column: 11, path: 'Hangup@now' }),
    ]);
  });

  it('warns about text in verbs that take none', () => {
    const result = parseIn('<Pause length="1">wait</Pause>');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'rcml.unexpected-text', line: 2, column: 3 }),
    ]);
  });
});

describe('required text', () => {
  it.each([
    ['<Enqueue>  </Enqueue>', 'rcml.required'],
    ['<Email/>', 'rcml.required'],
    ['<Fax/>', 'rcml.required'],
    ['<Dial><Number/></Dial>', 'rcml.required'],
    ['<Dial><Conference/></Dial>', 'rcml.required'],
  ])('%s is an error %s', (xml, code) => {
    const result = parseIn(xml);
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toEqual([expect.objectContaining({ code, severity: 'error', line: 2 })]);
  });

  // The platform runs these empty (VoiceInterpreter: an empty Redirect, Play or Dial goes on to
  // the next verb; an empty Sms stops the call with 14103): warnings, so the document runs.
  it.each([
    ['<Play/>', 'rcml.required'],
    ['<Redirect/>', 'rcml.required'],
    ['<Redirect>   </Redirect>', 'rcml.required'],
    ['<Sms></Sms>', '14103'],
    ['<Dial/>', 'rcml.required'],
  ])('%s is a warning %s', (xml, code) => {
    const result = parseIn(xml);
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([expect.objectContaining({ code, severity: 'warning', line: 2 })]);
  });

  it('an empty Say is valid and does nothing', () => {
    expect(parseIn('<Say/>')).toMatchObject({ ok: true, diagnostics: [] });
  });
});
