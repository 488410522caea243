import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authorizationFor,
  type DigestParams,
  digestResponse,
  formatDigest,
  parseDigest,
} from '../../../src/telephony/sip/digest.js';

describe('digest response', () => {
  it('matches the example of RFC 2617 section 3.5 (MD5, qop=auth)', () => {
    expect(
      digestResponse({
        username: 'Mufasa',
        realm: 'testrealm@host.com',
        password: 'Circle Of Life',
        method: 'GET',
        uri: '/dir/index.html',
        nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
        qop: 'auth',
        nc: '00000001',
        cnonce: '0a4f113b',
      }),
    ).toBe('6629fae49393a05397450978507c4ef1');
  });

  it('matches the examples of RFC 7616 section 3.9.1 (MD5 and SHA-256)', () => {
    const input = {
      username: 'Mufasa',
      realm: 'http-auth@example.org',
      password: 'Circle of Life',
      method: 'GET',
      uri: '/dir/index.html',
      nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
      qop: 'auth',
      nc: '00000001',
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
    };
    expect(digestResponse({ ...input, algorithm: 'MD5' })).toBe('8ca523f5e9506fed4657c9700eebdbec');
    expect(digestResponse({ ...input, algorithm: 'SHA-256' })).toBe(
      '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1',
    );
  });

  it('answers a SIP challenge with qop=auth, the nonce, opaque and the response of RFC 2617', () => {
    const header = authorizationFor(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
      { username: 'Mufasa', password: 'Circle Of Life' },
      'GET',
      '/dir/index.html',
      '0a4f113b',
    );
    expect(header).toBe(
      'Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", uri="/dir/index.html", response="6629fae49393a05397450978507c4ef1", qop=auth, nc=00000001, cnonce="0a4f113b", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
  });

  it('does not answer what it cannot: another scheme, an unknown algorithm, auth-int only, no nonce', () => {
    const creds = { username: 'a', password: 'b' };
    expect(authorizationFor('Basic realm="x"', creds, 'INVITE', 'sip:x')).toBeUndefined();
    expect(
      authorizationFor('Digest realm="x", nonce="n", algorithm=MD4', creds, 'INVITE', 'sip:x'),
    ).toBeUndefined();
    expect(
      authorizationFor('Digest realm="x", nonce="n", qop="auth-int"', creds, 'INVITE', 'sip:x'),
    ).toBeUndefined();
    expect(authorizationFor('Digest realm="x"', creds, 'INVITE', 'sip:x')).toBeUndefined();
  });
});

describe('digest header parser', () => {
  it('reads quoted values with commas and escapes, tokens and any case of names', () => {
    expect(parseDigest('Digest realm="a, b", NONCE="x\\"y", algorithm=MD5, stale=FALSE')).toEqual({
      scheme: 'Digest',
      params: { realm: 'a, b', nonce: 'x"y', algorithm: 'MD5', stale: 'FALSE' },
    });
    expect(parseDigest('Digest realm="x" nonce')).toBeUndefined();
    expect(parseDigest('')).toBeUndefined();
  });

  it('never throws, whatever the header', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        parseDigest(text);
        parseDigest(`Digest ${text}`);
      }),
    );
  });

  it('reads back what it writes', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9._-]{0,11}$/);
    const value = fc.string({ maxLength: 40 }).filter((v) => !/[\r\n]/.test(v));
    const digest = fc.record({
      scheme: fc.constantFrom('Digest', 'digest', 'Basic'),
      params: fc.dictionary(name, value, { maxKeys: 8 }),
    });
    fc.assert(
      fc.property(digest, fc.subarray(['algorithm', 'stale', 'qop', 'nc']), (d: DigestParams, bare) => {
        const text = formatDigest(d, bare);
        expect(parseDigest(text)).toEqual(d);
      }),
    );
  });
});
