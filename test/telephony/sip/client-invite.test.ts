/**
 * Which INVITEs are a client's calls and how they are authenticated: the registrar's nonces
 * and digest check, a 407 challenge, the client's account and voice URL once answered; the
 * same answers whether the From names a login or not, and lockouts after wrong answers.
 */
import { describe, expect, it } from 'vitest';
import { authorizeClientInvite } from '../../../src/telephony/sip/client-invite.js';
import { authorizationFor } from '../../../src/telephony/sip/digest.js';
import { headerOf, type SipRequest } from '../../../src/telephony/sip/message.js';
import { Registrar, type SipClientDirectory } from '../../../src/telephony/sip/registrar.js';
import type { UasInvite } from '../../../src/telephony/sip/uas-invite.js';

const URI = 'sip:+15550100@127.0.0.1';
const VOICE = { url: 'https://app.test/client', method: 'GET' as const };

const directory: SipClientDirectory = {
  clientsOf: (login) =>
    login === 'alice'
      ? [{ accountSid: 'AC1', password: 'pw', voice: VOICE }]
      : login === 'bob'
        ? [{ accountSid: 'AC1', password: 'pw' }]
        : login === 'twin'
          ? [
              { accountSid: 'AC1', password: 'pw', voice: VOICE },
              { accountSid: 'AC2', password: 'pw' },
            ]
          : [],
};

/** The part of a UasInvite read here: its INVITE, From user and source. */
function invite(from: string, auth?: [name: string, value: string], address = '192.0.2.10'): UasInvite {
  const request: SipRequest = {
    kind: 'request',
    method: 'INVITE',
    uri: URI,
    headers: [
      ['via', 'SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bKi1'],
      ['from', `<sip:${from}@127.0.0.1>;tag=f1`],
      ['to', `<${URI}>`],
      ['call-id', 'inv@test'],
      ['cseq', '1 INVITE'],
      ...(auth ? [auth] : []),
    ],
    body: '',
  };
  return {
    invite: request,
    callerUser: from,
    peer: { transport: 'udp', address, port: 5070 },
  } as unknown as UasInvite;
}

describe('client INVITEs', () => {
  let now = 1_000_000;
  const registrar = new Registrar(directory, '127.0.0.1', { now: () => now });

  /** The challenge to an INVITE of `from` without credentials, to a number nobody routes. */
  const challenge = (from: string) => {
    const first = authorizeClientInvite(invite(from), registrar, false);
    expect(first).toMatchObject({ kind: 'refuse', status: 407, reason: 'Proxy Authentication Required' });
    return headerOf((first as { headers: [string, string][] }).headers, 'proxy-authenticate') as string;
  };
  const answered = (
    from: string,
    password: string,
    header = 'proxy-authorization',
    user = from,
    address = '192.0.2.10',
  ) =>
    authorizeClientInvite(
      invite(
        from,
        [header, authorizationFor(challenge(from), { username: user, password }, 'INVITE', URI) as string],
        address,
      ),
      registrar,
      false,
    );

  it('leaves a call to a routed number to number routing, unchallenged, whatever its From', () => {
    for (const from of ['15551111', 'bob', 'alice', 'mallory'])
      expect(authorizeClientInvite(invite(from), registrar, true)).toEqual({ kind: 'number' });
  });

  it('answers a known login and an unknown one alike: 407 first, then the same 403 for a wrong answer', () => {
    const unknown = answered('mallory', 'guess');
    const wrong = answered('alice', 'guess');
    const onTheWire = (r: ReturnType<typeof answered>) =>
      r.kind === 'refuse' ? [r.status, r.reason ?? 'Forbidden'] : [r.kind];
    expect(onTheWire(unknown)).toEqual([403, 'Forbidden']);
    expect(onTheWire(wrong)).toEqual(onTheWire(unknown));
    // A client without a voice URL, authenticated, is routed by number.
    expect(answered('bob', 'pw')).toEqual({ kind: 'number' });
  });

  it('locks a login and source out after five wrong answers (refused unchecked), not the client elsewhere', () => {
    for (let i = 0; i < 5; i++)
      expect(answered('alice', `guess${i}`, undefined, undefined, '198.51.100.7')).toMatchObject({
        status: 403,
      });
    expect(answered('alice', 'pw', undefined, undefined, '198.51.100.7')).toMatchObject({
      kind: 'refuse',
      status: 403,
    });
    expect(answered('alice', 'pw', undefined, undefined, '192.0.2.10')).toMatchObject({ kind: 'client' });
    // The lockout ends after a minute; a guesser that goes on is locked out for two.
    now += 60_000;
    for (let i = 0; i < 5; i++) answered('alice', `again${i}`, undefined, undefined, '198.51.100.7');
    now += 60_000;
    expect(answered('alice', 'pw', undefined, undefined, '198.51.100.7')).toMatchObject({ status: 403 });
    now += 60_000;
    // A right answer once it has ended clears the pair.
    expect(answered('alice', 'pw', undefined, undefined, '198.51.100.7')).toMatchObject({ kind: 'client' });
  });

  it("challenges a client's INVITE, then gives its account and voice URL for the right digest", () => {
    expect(challenge('alice')).toMatch(
      /^Digest realm="127\.0\.0\.1", nonce="[0-9a-f]{32}", qop="auth", algorithm=MD5$/,
    );
    expect(answered('alice', 'pw')).toEqual({
      kind: 'client',
      login: 'alice',
      accountSid: 'AC1',
      voice: VOICE,
    });
    // Credentials in Authorization (a softphone answering as to a 401) do as well.
    expect(answered('alice', 'pw', 'authorization')).toMatchObject({ kind: 'client' });
  });

  it('refuses a wrong password, another user name and a login two accounts share (403)', () => {
    expect(answered('alice', 'nope')).toEqual({ kind: 'refuse', status: 403, reason: undefined });
    expect(answered('alice', 'pw', 'proxy-authorization', 'bob')).toMatchObject({
      status: 403,
      reason: 'Username Does Not Match From',
    });
    expect(answered('twin', 'pw')).toMatchObject({ status: 403, reason: 'Ambiguous Client Login' });
    const bad = authorizeClientInvite(
      invite('alice', ['proxy-authorization', 'Basic xyz']),
      registrar,
      false,
    );
    expect(bad).toMatchObject({ status: 400 });
  });

  it('challenges again (stale) an answer to an expired nonce', () => {
    const header = challenge('alice');
    now += 5 * 60_000;
    const late = authorizeClientInvite(
      invite('alice', [
        'proxy-authorization',
        authorizationFor(header, { username: 'alice', password: 'pw' }, 'INVITE', URI) as string,
      ]),
      registrar,
      false,
    );
    expect(late).toMatchObject({ kind: 'refuse', status: 407 });
    expect(headerOf((late as { headers: [string, string][] }).headers, 'proxy-authenticate')).toContain(
      'stale=TRUE',
    );
  });
});
