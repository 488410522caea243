import { describe, expect, it } from 'vitest';
import { type Dial, parseRcml, textTarget } from '../../../src/rcml/index.js';

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
    const result = parseRcml(
      '<Response><Dial><Conference name="1112"><Video/></Conference></Dial></Response>',
    );
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((d) => [d.code, d.column])).toEqual([
      ['rcml.unknown-attribute', 29],
      ['rcml.unknown-element', 41],
    ]);
    if (result.ok)
      expect((result.document.verbs[0] as Dial).nouns).toMatchObject([{ noun: 'Conference', name: '1112' }]);
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
