import { describe, expect, it } from 'vitest';
import { buildRcml, type Dial, parseRcml, textTarget } from '../../../src/rcml/index.js';

function dial(xml: string): Dial {
  const result = parseRcml(`<Response>${xml}</Response>`);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.document.verbs[0] as Dial;
}

describe('Dial', () => {
  it('turns a text target into the matching noun', () => {
    expect(dial('<Dial> +15551234567 </Dial>')).toMatchObject({
      fromText: true,
      nouns: [{ noun: 'Number', number: '+15551234567' }],
    });
    expect(dial('<Dial>client:alice</Dial>').nouns).toMatchObject([{ noun: 'Client', name: 'alice' }]);
    expect(dial('<Dial>sip:bob@h.com?X-A=1&X-B=2</Dial>').nouns).toMatchObject([
      { noun: 'Sip', uri: 'sip:bob@h.com?X-A=1&X-B=2' },
    ]);
    expect(textTarget('SIPS:x@y')).toEqual({ noun: 'Sip', uri: 'SIPS:x@y' });
  });

  it('reads every noun kind in order, keeping the full SIP URI', () => {
    const d = dial(
      '<Dial><Number sendDigits="w1">+1</Number><Client>bob</Client><Sip username="u">sip:k@e.com?h=foo&amp;x=y</Sip><Conference muted="true">room</Conference><Queue rejoin="true">support</Queue></Dial>',
    );
    expect(d.fromText).toBeUndefined();
    expect(d.nouns).toMatchObject([
      { noun: 'Number', number: '+1', sendDigits: 'w1' },
      { noun: 'Client', name: 'bob' },
      { noun: 'Sip', uri: 'sip:k@e.com?h=foo&x=y', username: 'u' },
      { noun: 'Conference', name: 'room', muted: true },
      { noun: 'Queue', name: 'support', rejoin: true },
    ]);
  });

  it('warns about unknown nouns and text mixed with nouns', () => {
    const result = parseRcml('<Response><Dial>+1<Uri>sip:a@b</Uri><Client>c</Client></Dial></Response>');
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['rcml.unexpected-text', 'rcml.unknown-noun']);
    if (result.ok) expect((result.document.verbs[0] as Dial).nouns).toMatchObject([{ noun: 'Client' }]);
  });

  it('uses a `name` attribute when the noun text is empty, with a warning', () => {
    const result = parseRcml('<Response><Dial><Conference name="1112"/></Dial></Response>');
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((d) => [d.code, d.column])).toEqual([['rcml.unknown-attribute', 29]]);
    if (result.ok)
      expect((result.document.verbs[0] as Dial).nouns).toMatchObject([{ noun: 'Conference', name: '1112' }]);
  });

  // The Visual Designer's noun converters (ClientNounConverter, SipuriNounConverter,
  // ConferenceNounConverter.marshal) write a noun with video as name="destination" plus a
  // <Video enable mode resolution layout overlay/> child.
  it('reads a <Video> child, the destination then in `name` without a warning', () => {
    const xml =
      '<Response><Dial><Client statusCallback="http://cb" name="alice"><Video enable="true" resolution="720p" overlay="Sales"/></Client>' +
      '<Sip name="sip:bob@x.test"><Video enable="true"/></Sip>' +
      '<Conference beep="false" name="room7"><Video enable="true" mode="sfu" resolution="1080p" layout="tile" overlay=""/></Conference></Dial></Response>';
    const result = parseRcml(xml);
    expect(result.diagnostics).toEqual([]);
    const nouns = result.ok ? (result.document.verbs[0] as Dial).nouns : [];
    expect(nouns).toMatchObject([
      {
        noun: 'Client',
        name: 'alice',
        statusCallback: 'http://cb',
        video: { enable: true, resolution: '720p', overlay: 'Sales' },
      },
      { noun: 'Sip', uri: 'sip:bob@x.test', video: { enable: true } },
      {
        noun: 'Conference',
        name: 'room7',
        beep: false,
        video: { enable: true, mode: 'sfu', resolution: '1080p', layout: 'tile', overlay: '' },
      },
    ]);
    // Written back the same way.
    const doc = result.ok ? result.document : { verbs: [] };
    expect(buildRcml(doc, { pretty: false })).toBe(`<?xml version="1.0" encoding="UTF-8"?>${xml}`);
  });

  it('warns about a second <Video>, a Video attribute of another noun, and anything else in a noun', () => {
    const result = parseRcml(
      '<Response><Dial><Client name="a"><Video layout="tile"/><Video/><Say>x</Say></Client></Dial></Response>',
    );
    expect(result.diagnostics.map((d) => d.code)).toEqual([
      'rcml.unknown-attribute',
      'rcml.unknown-element',
      'rcml.nesting',
    ]);
  });

  it('ignores a `name` attribute beside text, with a warning', () => {
    const result = parseRcml('<Response><Dial><Client name="x">alice</Client></Dial></Response>');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'rcml.unknown-attribute',
        message: expect.stringContaining('ignored'),
      }),
    ]);
    if (result.ok) expect((result.document.verbs[0] as Dial).nouns).toMatchObject([{ name: 'alice' }]);
  });

  it('a verb inside a noun is skipped with a nesting warning', () => {
    const result = parseRcml('<Response><Dial><Number>1<Say>x</Say></Number></Dial></Response>');
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'rcml.nesting', severity: 'warning', column: 26 }),
    ]);
  });
});
