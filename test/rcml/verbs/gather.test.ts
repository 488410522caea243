import { describe, expect, it } from 'vitest';
import { parseRcml } from '../../../src/rcml/index.js';

describe('Gather nesting', () => {
  it('keeps nested Say, Play and Pause prompts in order', () => {
    const result = parseRcml(
      '<Response><Gather numDigits="1"><Say>a</Say><Play>b.wav</Play><Pause length="2"/></Gather></Response>',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.verbs[0]).toMatchObject({
      verb: 'Gather',
      numDigits: 1,
      prompts: [
        { verb: 'Say', text: 'a' },
        { verb: 'Play', url: 'b.wav' },
        { verb: 'Pause', length: 2 },
      ],
    });
  });

  it.each(['Dial', 'Gather', 'Record', 'Redirect', 'Hangup', 'Number', 'Response'])(
    // The platform's rcml/Parser.next skips a verb that is a child of the current verb.
    '<%s> inside Gather is skipped with a warning at the nested element',
    (name) => {
      const xml = `<Response>\n  <Gather>\n    <Say>x</Say>\n      <${name}>1</${name}>\n  </Gather>\n</Response>`;
      const result = parseRcml(xml);
      expect(result.ok && result.document.verbs).toEqual([
        expect.objectContaining({ verb: 'Gather', prompts: [expect.objectContaining({ verb: 'Say' })] }),
      ]);
      expect(result.diagnostics).toEqual([
        {
          code: 'rcml.nesting',
          severity: 'warning',
          message: `<${name}> cannot be nested in <Gather> (skipped)`,
          line: 4,
          column: 7,
          path: `Gather/${name}`,
        },
      ]);
    },
  );

  it('skips unknown elements inside Gather with a warning', () => {
    const result = parseRcml('<Response><Gather><Beep/><Say>x</Say></Gather></Response>');
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: 'rcml.unknown-verb', column: 19 })]);
    if (result.ok) expect(result.document.verbs[0]).toMatchObject({ prompts: [{ verb: 'Say' }] });
  });

  it('reports attribute warnings of nested prompts at their own position', () => {
    const result = parseRcml('<Response><Gather>\n<Say loop="x">a</Say></Gather></Response>');
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: '13322', line: 2, column: 6 })]);
  });

  it('skips verbs nested in other verbs with a warning', () => {
    const result = parseRcml('<Response><Say>hi <Play>a.wav</Play></Say></Response>');
    expect(result.ok && result.document.verbs).toEqual([
      expect.objectContaining({ verb: 'Say', text: 'hi' }),
    ]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'rcml.nesting', severity: 'warning', column: 19 }),
    ]);
  });
});
