import { describe, expect, it } from 'vitest';
import {
  authorizationFor,
  digestResponse,
  formatDigest,
  parseDigest,
} from '../../../src/telephony/sip/digest.js';
import { headerOf, type SipRequest } from '../../../src/telephony/sip/message.js';
import { Registrar } from '../../../src/telephony/sip/registrar.js';

const peer = { transport: 'udp' as const, address: '127.0.0.1', port: 5070 };

function register(login: string, contact: string, expires?: string, authorization?: string): SipRequest {
  return {
    kind: 'request',
    method: 'REGISTER',
    uri: 'sip:127.0.0.1',
    headers: [
      ['via', 'SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bKr1'],
      ['from', `<sip:${login}@127.0.0.1>;tag=f1`],
      ['to', `<sip:${login}@127.0.0.1>`],
      ['call-id', 'reg@test'],
      ['cseq', '1 REGISTER'],
      ['contact', contact],
      ...(expires === undefined ? [] : [['expires', expires] as [string, string]]),
      ...(authorization ? [['authorization', authorization] as [string, string]] : []),
    ],
    body: '',
  };
}

describe('registrar', () => {
  let now = 1_000_000;
  let aliceKnown = true;
  const registrar = new Registrar(
    {
      clientsOf: (login) =>
        login === 'alice' && aliceKnown
          ? [{ accountSid: 'AC1', password: 'pw' }]
          : login === 'twin'
            ? [
                { accountSid: 'AC1', password: 'pw' },
                { accountSid: 'AC2', password: 'pw' },
              ]
            : [],
    },
    '127.0.0.1',
    { now: () => now },
  );

  /** Registers after the challenge, answering it with `password`. */
  const signed = (login: string, contact: string, expires?: string, password = 'pw') => {
    const challenge = registrar.register(register(login, contact, expires), peer);
    expect(challenge.status).toBe(401);
    const header = headerOf(challenge.headers, 'www-authenticate') as string;
    const authorization = authorizationFor(
      header,
      { username: login, password },
      'REGISTER',
      'sip:127.0.0.1',
    );
    return registrar.register(register(login, contact, expires, authorization), peer);
  };

  it('binds the contact for the asked time, capped at an hour, for its account only', () => {
    const ok = signed('alice', '<sip:alice@10.0.0.5:5062>', '7200');
    expect(ok.status).toBe(200);
    expect(headerOf(ok.headers, 'contact')).toBe('<sip:alice@10.0.0.5:5062>;expires=3600');
    expect(registrar.lookup('alice', 'AC1')?.contact).toBe('sip:alice@10.0.0.5:5062');
    expect(registrar.lookup('alice', 'AC2')).toBeUndefined();
    now += 3600_000;
    expect(registrar.lookup('alice', 'AC1')).toBeUndefined();
  });

  it('stops calling a binding once its client leaves the directory (deleted, made inactive)', () => {
    expect(signed('alice', '<sip:alice@10.0.0.5:5062>', '600').status).toBe(200);
    aliceKnown = false;
    expect(registrar.lookup('alice', 'AC1')).toBeUndefined();
    aliceKnown = true;
    expect(registrar.lookup('alice', 'AC1')?.contact).toBe('sip:alice@10.0.0.5:5062');
  });

  it('takes the Contact expires parameter over the header, and 0 removes the binding', () => {
    expect(signed('alice', '<sip:alice@10.0.0.5:5062>;expires=30', '600').status).toBe(200);
    expect(registrar.lookup('alice', 'AC1')).toBeDefined();
    expect(signed('alice', '*', '0').status).toBe(200);
    expect(registrar.lookup('alice', 'AC1')).toBeUndefined();
    expect(signed('alice', '*', '60').status).toBe(400);
  });

  it('refuses a wrong password, an unknown client and a login two accounts share, with 403', () => {
    expect(signed('alice', '<sip:alice@10.0.0.5>', '60', 'nope').status).toBe(403);
    expect(signed('mallory', '<sip:m@10.0.0.5>', '60').status).toBe(403);
    const twin = signed('twin', '<sip:twin@10.0.0.5>', '60');
    expect([twin.status, twin.reason]).toEqual([403, 'Ambiguous Client Login']);
  });

  it('accepts an answer once: a replay, or the same nonce count again, is challenged afresh; a higher count is accepted', () => {
    const challenge = registrar.register(register('alice', '<sip:alice@10.0.0.5>', '60'), peer);
    const header = headerOf(challenge.headers, 'www-authenticate') as string;
    const answerWith = (nc: string, cnonce: string) => {
      const first = authorizationFor(
        header,
        { username: 'alice', password: 'pw' },
        'REGISTER',
        'sip:127.0.0.1',
        cnonce,
      );
      // The same answer counted `nc`: the helper always counts 1, so the response is made again.
      const params: Record<string, string> = { ...parseDigest(first as string)?.params, nc };
      params.response = digestResponse({
        username: 'alice',
        realm: params.realm,
        password: 'pw',
        method: 'REGISTER',
        uri: params.uri,
        nonce: params.nonce,
        qop: 'auth',
        nc,
        cnonce,
      });
      return formatDigest({ scheme: 'Digest', params }, ['algorithm', 'qop', 'nc']);
    };
    const send = (authorization: string) =>
      registrar.register(register('alice', '<sip:alice@10.0.0.5>', '60', authorization), peer);
    const once = answerWith('00000001', 'c1');
    expect(send(once).status).toBe(200);
    const replayed = send(once);
    expect(replayed.status).toBe(401);
    expect(headerOf(replayed.headers, 'www-authenticate')).toContain('stale=TRUE');
    expect(send(answerWith('00000001', 'c2')).status).toBe(401);
    expect(send(answerWith('00000002', 'c3')).status).toBe(200);
    expect(send(answerWith('00000002', 'c3')).status).toBe(401);
  });

  it('challenges again (stale) an answer to a nonce it did not give or that has expired', () => {
    const forged =
      'Digest username="alice", realm="127.0.0.1", nonce="forged", uri="sip:127.0.0.1", response="0"';
    const answer = registrar.register(register('alice', '<sip:alice@10.0.0.5>', '60', forged), peer);
    expect(answer.status).toBe(401);
    expect(headerOf(answer.headers, 'www-authenticate')).toContain('stale=TRUE');
  });

  it('keeps no table of nonces: 20,000 challenges to strangers leave a client able to register', () => {
    for (let i = 0; i < 20_000; i++) {
      const answer = registrar.register(register(`stranger${i}`, '<sip:x@10.0.0.9>', '60'), {
        ...peer,
        address: `10.9.${i >> 8}.${i & 255}`,
      });
      expect(answer.status).toBe(401);
    }
    expect(signed('alice', '<sip:alice@10.0.0.5>', '60').status).toBe(200);
  });

  it('refuses an answer without qop (RFC 2069) with 403', () => {
    const challenge = registrar.register(register('alice', '<sip:alice@10.0.0.5>', '60'), peer);
    const nonce = parseDigest(headerOf(challenge.headers, 'www-authenticate') as string)?.params
      .nonce as string;
    const response = digestResponse({
      username: 'alice',
      realm: '127.0.0.1',
      password: 'pw',
      method: 'REGISTER',
      uri: 'sip:127.0.0.1',
      nonce,
    });
    const old = `Digest username="alice", realm="127.0.0.1", nonce="${nonce}", uri="sip:127.0.0.1", response="${response}"`;
    expect(registrar.register(register('alice', '<sip:alice@10.0.0.5>', '60', old), peer).status).toBe(403);
  });

  it('reports a binding from a source the client was not bound from, once', () => {
    const seen: string[] = [];
    const watched = new Registrar(
      { clientsOf: (l) => (l === 'alice' ? [{ accountSid: 'AC1', password: 'pw' }] : []) },
      '127.0.0.1',
      {
        now: () => now,
        onNewSource: (login, binding, previous) =>
          seen.push(`${login} ${binding.source} ${previous?.source ?? '-'}`),
      },
    );
    const from = (address: string) => {
      const source = { ...peer, address };
      const challenge = watched.register(register('alice', '<sip:alice@10.0.0.5>', '60'), source);
      const authorization = authorizationFor(
        headerOf(challenge.headers, 'www-authenticate') as string,
        { username: 'alice', password: 'pw' },
        'REGISTER',
        'sip:127.0.0.1',
      );
      return watched.register(register('alice', '<sip:alice@10.0.0.5>', '60', authorization), source).status;
    };
    expect(from('192.0.2.5')).toBe(200);
    expect(from('192.0.2.5')).toBe(200);
    expect(from('203.0.113.66')).toBe(200);
    expect(seen).toEqual(['alice 192.0.2.5:5070 -', 'alice 203.0.113.66:5070 192.0.2.5:5070']);
    expect(watched.registrations()).toMatchObject([{ login: 'alice', source: '203.0.113.66:5070' }]);
  });

  it('challenges with SHA-256 first and MD5 when both are offered (RFC 8760), and takes either answer', () => {
    const both = new Registrar(
      { clientsOf: (l) => (l === 'alice' ? [{ accountSid: 'AC1', password: 'pw' }] : []) },
      '127.0.0.1',
      {
        now: () => now,
        algorithms: ['SHA-256', 'MD5'],
      },
    );
    for (const pick of [0, 1]) {
      const challenge = both.register(register('alice', '<sip:alice@10.0.0.5>', '60'), peer);
      const offered = challenge.headers.filter(([n]) => n === 'www-authenticate').map(([, v]) => v);
      expect(offered.map((h) => parseDigest(h)?.params.algorithm)).toEqual(['SHA-256', 'MD5']);
      const authorization = authorizationFor(
        offered[pick],
        { username: 'alice', password: 'pw' },
        'REGISTER',
        'sip:127.0.0.1',
      );
      expect(both.register(register('alice', '<sip:alice@10.0.0.5>', '60', authorization), peer).status).toBe(
        200,
      );
    }
  });
});
