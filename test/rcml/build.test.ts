import { describe, expect, it } from 'vitest';
import { buildRcml, parseRcml, type RcmlDocument } from '../../src/rcml/index.js';

describe('buildRcml', () => {
  it('writes the XML header and only the attributes that are set', () => {
    const xml = buildRcml({
      verbs: [
        { verb: 'Say', text: 'Hi & bye <3', voice: 'woman', loop: undefined },
        { verb: 'Pause' },
        { verb: 'Hangup', pos: { line: 9, column: 9 } },
      ],
    });
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<Response>',
        '  <Say voice="woman">Hi &amp; bye &lt;3</Say>',
        '  <Pause/>',
        '  <Hangup/>',
        '</Response>',
      ].join('\n'),
    );
  });

  it('writes text targets back as Dial text and nouns as elements', () => {
    const doc: RcmlDocument = {
      verbs: [
        { verb: 'Dial', nouns: [{ noun: 'Client', name: 'alice' }], fromText: true },
        { verb: 'Dial', timeout: 5, nouns: [{ noun: 'Sip', uri: 'sip:a@b?x=1&y=2', username: 'u' }] },
        {
          verb: 'Gather',
          numDigits: 1,
          prompts: [{ verb: 'Say', text: 'press 1' }],
        },
        { verb: 'Unknown', name: 'UssdMessage', attributes: { lang: 'en' }, text: 'hi' },
      ],
    };
    expect(buildRcml(doc, { pretty: false })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Dial>client:alice</Dial>' +
        '<Dial timeout="5"><Sip username="u">sip:a@b?x=1&amp;y=2</Sip></Dial>' +
        '<Gather numDigits="1"><Say>press 1</Say></Gather><UssdMessage lang="en">hi</UssdMessage></Response>',
    );
  });

  it('keeps text that looks like an entity reference exactly', () => {
    const xml = buildRcml(
      { verbs: [{ verb: 'Say', text: '&amp; &#65; & x', language: '&lt;' }] },
      { pretty: false },
    );
    expect(xml).toContain('<Say language="&amp;lt;">&amp;amp; &amp;#65; &amp; x</Say>');
    const parsed = parseRcml(xml);
    expect(parsed.ok && parsed.document.verbs[0]).toMatchObject({
      text: '&amp; &#65; & x',
      language: '&lt;',
    });
  });

  it('writes CR, and tab, LF and CR in values, as references so XML reads them back', () => {
    const xml = buildRcml(
      { verbs: [{ verb: 'Say', text: 'a\r\nb\rc\nd\te', language: 'x\ty\nz\r\n' }] },
      { pretty: false },
    );
    expect(xml).toContain('<Say language="x&#9;y&#10;z&#13;&#10;">a&#13;\nb&#13;c\nd\te</Say>');
    const parsed = parseRcml(xml);
    expect(parsed.ok && parsed.document.verbs[0]).toMatchObject({
      text: 'a\r\nb\rc\nd\te',
      language: 'x\ty\nz\r\n',
    });
  });

  it('writes a fromText noun with attributes as an element, losing nothing', () => {
    const xml = buildRcml({
      verbs: [{ verb: 'Dial', fromText: true, nouns: [{ noun: 'Number', number: '+1', sendDigits: '12' }] }],
    });
    expect(xml).toContain('<Number sendDigits="12">+1</Number>');
  });

  it('joins status callback events with commas', () => {
    const xml = buildRcml({
      verbs: [
        {
          verb: 'Dial',
          nouns: [{ noun: 'Client', name: 'a', statusCallbackEvent: ['ringing', 'completed'] }],
        },
      ],
    });
    expect(xml).toContain('statusCallbackEvent="ringing,completed"');
    const parsed = parseRcml(xml);
    expect(parsed.ok && parsed.document.verbs[0]).toMatchObject({
      nouns: [{ statusCallbackEvent: ['ringing', 'completed'] }],
    });
  });
});
