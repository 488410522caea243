import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DialBuilder,
  type DialNoun,
  parseRcml,
  type RcmlDocument,
  type Verb,
  VoiceResponse,
} from '../../src/rcml/index.js';
import { arbitraryRcmlDocument, withoutPositions } from '../../src/rcml/testing.js';

/** Parses `xml`, expecting no diagnostic at all, and returns the document without positions. */
function reparse(xml: string): RcmlDocument {
  const result = parseRcml(xml);
  expect(result.diagnostics).toEqual([]);
  if (!result.ok) throw new Error('does not parse');
  return withoutPositions(result.document);
}

describe('VoiceResponse', () => {
  it('builds the menu example as the hand-written model and XML', () => {
    const r = new VoiceResponse();
    r.say({ voice: 'woman' }, 'Hello');
    const g = r.gather({ numDigits: 1, action: '/menu' });
    g.say('Press 1');
    r.dial({ timeout: 20 }).number('+15551234');

    const expected: RcmlDocument = {
      verbs: [
        { verb: 'Say', text: 'Hello', voice: 'woman' },
        { verb: 'Gather', numDigits: 1, action: '/menu', prompts: [{ verb: 'Say', text: 'Press 1' }] },
        { verb: 'Dial', timeout: 20, nouns: [{ noun: 'Number', number: '+15551234' }] },
      ],
    };
    expect(r.toDocument()).toEqual(expected);
    expect(r.toXml()).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<Response>',
        '  <Say voice="woman">Hello</Say>',
        '  <Gather numDigits="1" action="/menu">',
        '    <Say>Press 1</Say>',
        '  </Gather>',
        '  <Dial timeout="20">',
        '    <Number>+15551234</Number>',
        '  </Dial>',
        '</Response>',
      ].join('\n'),
    );
    expect(reparse(r.toXml({ pretty: false }))).toEqual(expected);
    expect(String(r)).toBe(r.toXml());
  });

  it('has a method for every verb and noun, each giving the model node', () => {
    const r = new VoiceResponse()
      .say('Hi')
      .play({ loop: 2 }, 'https://example.com/a.wav')
      .pause({ length: 3 })
      .record({ maxLength: 30, playBeep: false, finishOnKey: '#' })
      .enqueue({ waitUrl: '/wait', rejoin: true }, 'support')
      .leave()
      .hold()
      .resume()
      .redirect({ method: 'GET' }, '/next.xml')
      .sms({ to: '+1555', from: '+1666' }, 'Thanks')
      .email({ to: 'a@example.com', subject: 'Call' }, 'Body')
      .fax({ to: '+1777' }, 'https://example.com/doc.pdf')
      .reject({ reason: 'busy' })
      .hangup();
    r.gather({ input: 'dtmf speech', hints: 'yes,no' })
      .play('/beep.wav')
      .pause()
      .say({ language: 'fr', loop: 0 }, 'Bonjour');
    r.dial({ callerId: '+15550000', record: true })
      .number({ sendDigits: '1w2', statusCallbackEvent: ['ringing', 'answered'] }, '+15551234')
      .client({ url: '/screen', method: 'GET' }, 'alice')
      .sip({ username: 'u', password: 'p' }, 'sip:bob@example.com?X-Tag=1')
      .conference({ beep: false, maxParticipants: 5 }, 'room')
      .queue({ url: '/announce' }, 'sales');

    const expected: Verb[] = [
      { verb: 'Say', text: 'Hi' },
      { verb: 'Play', url: 'https://example.com/a.wav', loop: 2 },
      { verb: 'Pause', length: 3 },
      { verb: 'Record', maxLength: 30, playBeep: false, finishOnKey: '#' },
      { verb: 'Enqueue', name: 'support', waitUrl: '/wait', rejoin: true },
      { verb: 'Leave' },
      { verb: 'Hold' },
      { verb: 'Resume' },
      { verb: 'Redirect', url: '/next.xml', method: 'GET' },
      { verb: 'Sms', text: 'Thanks', to: '+1555', from: '+1666' },
      { verb: 'Email', text: 'Body', to: 'a@example.com', subject: 'Call' },
      { verb: 'Fax', text: 'https://example.com/doc.pdf', to: '+1777' },
      { verb: 'Reject', reason: 'busy' },
      { verb: 'Hangup' },
      {
        verb: 'Gather',
        input: 'dtmf speech',
        hints: 'yes,no',
        prompts: [
          { verb: 'Play', url: '/beep.wav' },
          { verb: 'Pause' },
          { verb: 'Say', text: 'Bonjour', language: 'fr', loop: 0 },
        ],
      },
      {
        verb: 'Dial',
        callerId: '+15550000',
        record: true,
        nouns: [
          {
            noun: 'Number',
            number: '+15551234',
            sendDigits: '1w2',
            statusCallbackEvent: ['ringing', 'answered'],
          },
          { noun: 'Client', name: 'alice', url: '/screen', method: 'GET' },
          { noun: 'Sip', uri: 'sip:bob@example.com?X-Tag=1', username: 'u', password: 'p' },
          { noun: 'Conference', name: 'room', beep: false, maxParticipants: 5 },
          { noun: 'Queue', name: 'sales', url: '/announce' },
        ],
      },
    ];
    expect(r.toDocument()).toEqual({ verbs: expected });
    expect(reparse(r.toXml())).toEqual({ verbs: expected });
  });

  it('writes a Dial target as text, and as nouns once more are added', () => {
    const r = new VoiceResponse();
    r.dial('client:alice');
    r.dial({ timeout: 5 }, 'sip:bob@example.com');
    r.dial('+15551234').client('carol');
    expect(r.toDocument().verbs).toEqual([
      { verb: 'Dial', nouns: [{ noun: 'Client', name: 'alice' }], fromText: true },
      { verb: 'Dial', timeout: 5, nouns: [{ noun: 'Sip', uri: 'sip:bob@example.com' }], fromText: true },
      {
        verb: 'Dial',
        nouns: [
          { noun: 'Number', number: '+15551234' },
          { noun: 'Client', name: 'carol' },
        ],
      },
    ]);
    expect(r.toXml({ pretty: false })).toContain(
      '<Dial>client:alice</Dial><Dial timeout="5">sip:bob@example.com</Dial>',
    );
    expect(reparse(r.toXml())).toEqual(r.toDocument());
  });

  it('leaves out undefined attributes, ignores structural keys and copies the document', () => {
    const r = new VoiceResponse();
    r.say({ voice: undefined, loop: 2 }, 'x');
    // An untyped caller cannot change the element or its text through the attribute object.
    r.play({ verb: 'Say', url: '/other' } as unknown as { loop?: number }, '/a.wav');
    const before = r.toDocument();
    expect(before.verbs).toEqual([
      { verb: 'Say', text: 'x', loop: 2 },
      { verb: 'Play', url: '/a.wav' },
    ]);
    expect(Object.keys(before.verbs[0])).toEqual(['verb', 'text', 'loop']);
    r.hangup();
    before.verbs.pop();
    expect(r.toDocument().verbs).toHaveLength(3);
  });

  it('restricts nesting by type', () => {
    // Never called: the checks are the @ts-expect-error lines, verified by the type check.
    const typeChecks = (r: VoiceResponse, d: DialBuilder) => {
      const g = r.gather();
      // @ts-expect-error Gather nests only Say, Play and Pause
      g.dial();
      // @ts-expect-error Gather nests only Say, Play and Pause
      g.hangup();
      // @ts-expect-error nouns exist only on a Dial
      r.number('+1');
      // @ts-expect-error a Dial takes nouns, not verbs
      d.say('hi');
      // @ts-expect-error not a Say voice
      r.say({ voice: 'robot' }, 'hi');
      // @ts-expect-error the text is an argument, not an attribute
      r.say({ text: 'hi' }, 'hi');
      // @ts-expect-error nouns are added through the Dial builder
      r.dial({ nouns: [] });
    };
    expect(typeChecks).toBeTypeOf('function');
  });
});

/** Dial text as the parser reads it back into `noun`. */
function targetText(noun: DialNoun): string {
  if (noun.noun === 'Client') return `client:${noun.name}`;
  if (noun.noun === 'Sip') return noun.uri;
  if (noun.noun === 'Number') return noun.number;
  throw new Error(`${noun.noun} is never a text target`);
}

function addNoun(d: DialBuilder, noun: DialNoun): void {
  const { pos: _pos, ...rest } = noun;
  switch (rest.noun) {
    case 'Number': {
      const { noun: _, number, ...attributes } = rest;
      d.number(attributes, number);
      return;
    }
    case 'Client': {
      const { noun: _, name, ...attributes } = rest;
      d.client(attributes, name);
      return;
    }
    case 'Sip': {
      const { noun: _, uri, ...attributes } = rest;
      d.sip(attributes, uri);
      return;
    }
    case 'Conference': {
      const { noun: _, name, ...attributes } = rest;
      d.conference(attributes, name);
      return;
    }
    case 'Queue': {
      const { noun: _, name, ...attributes } = rest;
      d.queue(attributes, name);
    }
  }
}

/** Writes `verb` through the builder; false for unknown verbs, which it does not build. */
function addVerb(r: VoiceResponse, verb: Verb): boolean {
  switch (verb.verb) {
    case 'Say': {
      const { verb: _, text, ...attributes } = verb;
      r.say(attributes, text);
      return true;
    }
    case 'Play': {
      const { verb: _, url, ...attributes } = verb;
      r.play(attributes, url);
      return true;
    }
    case 'Gather': {
      const { verb: _, prompts, ...attributes } = verb;
      const g = r.gather(attributes);
      for (const p of prompts) {
        if (p.verb === 'Say') g.say({ voice: p.voice, language: p.language, loop: p.loop }, p.text);
        else if (p.verb === 'Play') g.play({ loop: p.loop }, p.url);
        else g.pause({ length: p.length });
      }
      return true;
    }
    case 'Dial': {
      const { verb: _, nouns, fromText, ...attributes } = verb;
      if (fromText) {
        r.dial(attributes, targetText(nouns[0]));
        return true;
      }
      const d = r.dial(attributes);
      for (const noun of nouns) addNoun(d, noun);
      return true;
    }
    case 'Enqueue': {
      const { verb: _, name, ...attributes } = verb;
      r.enqueue(attributes, name);
      return true;
    }
    case 'Redirect': {
      const { verb: _, url, ...attributes } = verb;
      r.redirect(attributes, url);
      return true;
    }
    case 'Sms': {
      const { verb: _, text, ...attributes } = verb;
      r.sms(attributes, text);
      return true;
    }
    case 'Email': {
      const { verb: _, text, ...attributes } = verb;
      r.email(attributes, text);
      return true;
    }
    case 'Fax': {
      const { verb: _, text, ...attributes } = verb;
      r.fax(attributes, text);
      return true;
    }
    case 'Pause':
      r.pause({ length: verb.length });
      return true;
    case 'Record': {
      const { verb: _, ...attributes } = verb;
      r.record(attributes);
      return true;
    }
    case 'Reject':
      r.reject({ reason: verb.reason });
      return true;
    case 'Leave':
      r.leave();
      return true;
    case 'Hold':
      r.hold();
      return true;
    case 'Resume':
      r.resume();
      return true;
    case 'Hangup':
      r.hangup();
      return true;
    case 'Unknown':
      return false;
  }
}

describe('VoiceResponse properties', () => {
  it('builds any document of known verbs, whose XML parses back to it with no diagnostics', () => {
    fc.assert(
      fc.property(arbitraryRcmlDocument(), (doc) => {
        const known = doc.verbs.filter((v) => v.verb !== 'Unknown');
        const r = new VoiceResponse();
        for (const verb of known) addVerb(r, verb);
        const built = r.toDocument();
        expect(built).toEqual({ verbs: known });
        expect(reparse(r.toXml())).toEqual(built);
      }),
      { numRuns: 200 },
    );
  });
});

describe('VoiceResponse.element: the escape hatch', () => {
  it('writes an element the builder does not know, or a known verb with attributes it does not know', () => {
    const r = new VoiceResponse();
    r.element('Say', { voice: 'alice', rate: '90%' }, 'Hi & bye');
    r.element('UssdCollect', { action: '/ussd' }, '', [
      { verb: 'Unknown', name: 'UssdMessage', attributes: {}, text: 'Pick one' },
    ]);
    expect(r.toXml({ pretty: false })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say voice="alice" rate="90%">Hi &amp; bye</Say>' +
        '<UssdCollect action="/ussd"><UssdMessage>Pick one</UssdMessage></UssdCollect></Response>',
    );
    expect(() => new VoiceResponse().element('not a name').toXml()).toThrow();
  });
});
