import fc from 'fast-check';
import { expect, it } from 'vitest';
import { formBody, formPairs, REPEATED_VALUES } from '../../src/engine/params.js';

const names = fc.oneof(fc.string(), fc.constantFrom('SipHeader_X-Foo', 'SipHeader_Diversion', 'CallSid'));
const values = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(`a${REPEATED_VALUES}b`, REPEATED_VALUES, "x y!~*()'%20+&=", '\ud800', 'é\udfff'),
);

it('formBody prints what URLSearchParams prints for the form pairs, repeated SIP headers and lone surrogates included', () => {
  fc.assert(
    fc.property(fc.dictionary(names, values), (params) => {
      expect(formBody(params)).toBe(new URLSearchParams(formPairs(params)).toString());
    }),
    { numRuns: 2000 },
  );
});
