import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCallSchema, plainCreateCall } from '../../src/api/platform/call-params.js';

let accepted = 0;

/** Whatever the direct check accepts, the schema accepts with the same output. */
function agrees(fields: Record<string, string>): boolean {
  const plain = plainCreateCall(fields);
  if (plain === undefined) return true;
  accepted++;
  const schema = createCallSchema.safeParse(fields);
  expect(schema.success).toBe(true);
  expect(plain).toEqual(schema.data);
  return true;
}

const oneOf = (...xs: string[]) => fc.constantFrom(...xs);
const url = fc
  .tuple(
    oneOf('http', 'https', 'HTTP', 'hTtPs', 'ftp', ''),
    oneOf('://', ':/', ':', '//'),
    oneOf('x', 'example.com', '127.0.0.1', '999.1.1.1', '[::1]', '[::1', '', 'a b', 'é', '%', 'u@h', '-'),
    oneOf('', ':8080', ':99999', ':', ':x'),
    oneOf('', '/', '/voice?a=1', '/#f', '/%zz', '/ x', '\t', '\n/', ' '),
  )
  .map((parts) => parts.join(''));
const to = fc.oneof(
  fc.array(oneOf('+', '1', '555', '*', '#'), { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
  fc.array(oneOf('+', '1', ' ', 'x', 'sip:', 'client:'), { maxLength: 4 }).map((p) => p.join('')),
);
const absent = fc.constant(undefined);
const from = fc.oneof(absent, oneOf('', '+1', ' ', 'x'));
const method = fc.oneof(absent, oneOf('', 'get', 'GET', 'post', 'put', 'poſt', ' GET'));

describe('create-call parameters checked without the schema', () => {
  it('answers the schema’s output for the common call', () => {
    const fields = { From: '+15550001', To: '+15550002', Url: 'http://127.0.0.1:8080/voice' };
    expect(plainCreateCall(fields)).toEqual(createCallSchema.parse(fields));
    expect(plainCreateCall({ ...fields, Method: 'get' })).toEqual(
      createCallSchema.parse({ ...fields, Method: 'get' }),
    );
  });

  it('leaves to the schema what it does not check itself', () => {
    const fields = { From: '+1', To: '+2', Url: 'https://example.com/' };
    expect(plainCreateCall({ ...fields, Timeout: '30' })).toBeUndefined();
    expect(plainCreateCall({ ...fields, StatusCallback: 'https://example.com/s' })).toBeUndefined();
    expect(plainCreateCall({ ...fields, To: 'sip:a@b' })).toBeUndefined();
    expect(plainCreateCall({ ...fields, Url: 'https://a b/' })).toBeUndefined();
    expect(plainCreateCall({ ...fields, Url: 'https://999.1.1.1/' })).toBeUndefined();
    expect(plainCreateCall({ ...fields, Method: 'PUT' })).toBeUndefined();
    expect(plainCreateCall({ ...fields, From: '' })).toBeUndefined();
  });

  it('never accepts what the schema refuses, nor answers otherwise', () => {
    fc.assert(
      fc.property(from, fc.oneof(absent, to), fc.oneof(absent, url), method, (From, To, Url, Method) => {
        const fields: Record<string, string> = {};
        for (const [k, v] of Object.entries({ From, To, Url, Method })) if (v !== undefined) fields[k] = v;
        return agrees(fields);
      }),
      { numRuns: 5000 },
    );
    // The inputs reach the direct check's answers, not only its refusals.
    expect(accepted).toBeGreaterThan(5);
  });
});
