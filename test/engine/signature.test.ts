import fc from 'fast-check';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { signedWith, validateRequest, webhookSignature } from '../../src/engine/signature.js';

// The example of Twilio's security documentation and its helper libraries' tests.
const EXAMPLE_URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const example = (caller: string) => ({
  CallSid: 'CA1234567890ABCDE',
  Caller: caller,
  Digits: '1234',
  From: caller,
  To: '+18005551212',
});

const runs = { numRuns: 100 };
const params = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== '__proto__'),
  fc.string({ maxLength: 20 }),
  { maxKeys: 8 },
);
const urls = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    fc.constantFrom('app.example', '127.0.0.1', 'calls.example.com'),
    fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/), { maxLength: 3 }),
    fc.option(fc.stringMatching(/^[a-z]{1,4}=[A-Za-z0-9]{0,6}$/), { nil: undefined }),
  )
  .map(
    ([scheme, host, port, path, query]) =>
      `${scheme}://${host}${port === undefined ? '' : `:${port}`}/${path.join('/')}${query ? `?${query}` : ''}`,
  );

describe('webhook signatures (the Twilio scheme)', () => {
  it("match Twilio's documented examples", () => {
    expect(webhookSignature('12345', EXAMPLE_URL, example('+14158675309'))).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
    expect(webhookSignature('12345', EXAMPLE_URL, example('+12349013030'))).toBe(
      '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
    );
    expect(
      validateRequest('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', EXAMPLE_URL, example('+14158675309')),
    ).toBe(true);
  });

  it('refuse another key, URL, parameter value, extra parameter or signature', () => {
    const sig = webhookSignature('12345', EXAMPLE_URL, example('+14158675309'));
    expect(validateRequest('12346', sig, EXAMPLE_URL, example('+14158675309'))).toBe(false);
    expect(validateRequest('12345', sig, `${EXAMPLE_URL}&x=1`, example('+14158675309'))).toBe(false);
    expect(validateRequest('12345', sig, EXAMPLE_URL, { ...example('+14158675309'), Digits: '1235' })).toBe(
      false,
    );
    expect(validateRequest('12345', sig, EXAMPLE_URL, { ...example('+14158675309'), X: '' })).toBe(false);
    expect(validateRequest('12345', '', EXAMPLE_URL, example('+14158675309'))).toBe(false);
    expect(validateRequest('12345', `${sig}=`, EXAMPLE_URL, example('+14158675309'))).toBe(false);
  });

  it('hold whether or not a proxy writes the default port, and never sign a URL password', () => {
    const p = { A: '1' };
    const sig = webhookSignature('k', 'https://app.example/x?y=1', p);
    expect(validateRequest('k', sig, 'https://app.example:443/x?y=1', p)).toBe(true);
    expect(
      validateRequest('k', webhookSignature('k', 'http://app.example:80/', p), 'http://app.example/', p),
    ).toBe(true);
    expect(validateRequest('k', sig, 'https://app.example:8443/x?y=1', p)).toBe(false);
    expect(webhookSignature('k', 'https://user:secret@app.example/x?y=1', p)).toBe(sig);
  });

  it('are what twilio-node computes and accepts, for any URL and parameters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), urls, params, (key, url, form) => {
        const sig = webhookSignature(key, url, form);
        expect(twilio.getExpectedTwilioSignature(key, url, form)).toBe(sig);
        expect(twilio.validateRequest(key, sig, url, form)).toBe(true);
        expect(validateRequest(key, sig, url, form)).toBe(true);
        expect(twilio.validateRequest(`${key}x`, sig, url, form)).toBe(false);
      }),
      runs,
    );
  });

  it('accept what twilio-node signs, and refuse it once a parameter changes', () => {
    fc.assert(
      fc.property(urls, params, fc.string({ minLength: 1, maxLength: 5 }), (url, form, extra) => {
        const sig = twilio.getExpectedTwilioSignature('secret', url, form);
        expect(validateRequest('secret', sig, url, form)).toBe(true);
        const changed = { ...form, Zz: `${form.Zz ?? ''}${extra}` };
        expect(validateRequest('secret', sig, url, changed)).toBe(false);
      }),
      runs,
    );
  });

  it('signedWith signs what goes on the wire: the URL, and the form of a POST only', () => {
    const out = (method: 'GET' | 'POST', url: string) => ({
      url,
      method,
      params: { A: '1' },
      kind: undefined,
      headers: {} as Record<string, string>,
      body: undefined,
    });
    const seen: string[] = [];
    const sign = signedWith('key-a', (o) => {
      seen.push(o.url);
      o.headers['x-extra'] = 'kept';
    });
    const post = out('POST', 'http://h/x');
    sign(post);
    expect(post.headers).toEqual({
      'x-extra': 'kept',
      'x-twilio-signature': webhookSignature('key-a', 'http://h/x', { A: '1' }),
    });
    const get = out('GET', 'http://h/x?A=1');
    sign(get);
    expect(get.headers['x-twilio-signature']).toBe(webhookSignature('key-a', 'http://h/x?A=1', {}));
    expect(seen).toEqual(['http://h/x', 'http://h/x?A=1']);
  });

  it('sign a repeated field as twilio-node does from the parsed body: each distinct value, sorted', () => {
    const sent = { CallSid: 'CA1', SipHeader_Diversion: '<sip:b@x>;reason=busy\n<sip:a@x>;reason=no-answer' };
    const parsed = {
      CallSid: 'CA1',
      SipHeader_Diversion: ['<sip:b@x>;reason=busy', '<sip:a@x>;reason=no-answer'],
    };
    const sig = webhookSignature('k', 'https://app.example/voice', sent);
    expect(sig).toBe(twilio.getExpectedTwilioSignature('k', 'https://app.example/voice', parsed));
    expect(twilio.validateRequest('k', sig, 'https://app.example/voice', parsed)).toBe(true);
    expect(validateRequest('k', sig, 'https://app.example/voice', parsed)).toBe(true);
    fc.assert(
      fc.property(
        urls,
        fc.array(fc.string({ maxLength: 10 }), { minLength: 2, maxLength: 4 }),
        (url, values) => {
          const form = { A: '1', Many: values };
          const expected = twilio.getExpectedTwilioSignature('k', url, form);
          expect(webhookSignature('k', url, form)).toBe(expected);
        },
      ),
      runs,
    );
  });
});
