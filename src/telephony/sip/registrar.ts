import { randomBytes } from 'node:crypto';
import type { InboundVoice } from '../../engine/ports/inbound-voice.js';
import { parseNameAddr, parseSipUri } from './address.js';
import { digestResponse, formatDigest, parseDigest } from './digest.js';
import { headerOf, headersOf, type SipRequest, type SipResponse } from './message.js';
import { responseTo } from './responses.js';
import type { SipPeer } from './transport.js';

/** A client (`client:<login>`) that may register: its account and digest password. */
export interface SipClientAccount {
  accountSid: string;
  password: string;
  /** Where the calls it places are routed (its `voice_url`); without it they go by number. */
  voice?: InboundVoice;
}

/** Where the registrar finds clients: every account's client of that login. */
export interface SipClientDirectory {
  clientsOf(login: string): readonly SipClientAccount[];
}

/** Where a registered client is called. */
export interface SipBinding {
  accountSid: string;
  /** The Contact URI it registered. */
  contact: string;
  /** ms since the epoch. */
  expires: number;
}

/** Longest registration granted (seconds); the default when none is asked for. */
export const MAX_EXPIRES = 3600;
/** How long a challenge's nonce may be answered (ms). */
const NONCE_LIFE = 5 * 60_000;
const MAX_NONCES = 10_000;

/**
 * A minimal registrar (RFC 3261 section 10.3): REGISTER authenticated by digest (MD5, qop=auth)
 * against the client's password, realm = our public address, user name = the client's login;
 * one binding per login (the latest), `Expires` capped at an hour, 0 removes it.
 */
export class Registrar {
  private readonly bindings = new Map<string, SipBinding>();
  /** Nonces given, with when and the highest nonce count accepted so far (0: none yet). */
  private readonly nonces = new Map<string, { issued: number; count: number }>();

  constructor(
    private readonly directory: SipClientDirectory,
    private readonly realm: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The live binding of `login` for `accountSid`'s calls, if any: only while the client is still
   * in the directory (a client deleted or made inactive is no longer called).
   */
  lookup(login: string, accountSid: string): SipBinding | undefined {
    const binding = this.bindings.get(login);
    if (!binding || binding.expires <= this.now() || binding.accountSid !== accountSid) return undefined;
    return this.directory.clientsOf(login).some((c) => c.accountSid === accountSid) ? binding : undefined;
  }

  /** The answer to a REGISTER. */
  register(request: SipRequest, _peer: SipPeer): SipResponse {
    const to = parseNameAddr(headerOf(request.headers, 'to') ?? '');
    const login = (to && parseSipUri(to.uri)?.user) ?? '';
    const checked = this.verify(request, login, headerOf(request.headers, 'authorization'));
    if ('client' in checked) return this.bind(request, login, checked.client.accountSid);
    if ('stale' in checked) return this.challenge(request, checked.stale);
    return responseTo(request, checked.status, { reason: checked.reason });
  }

  /**
   * Checks the digest `authorization` of `request` (REGISTER, or INVITE from a client) made by
   * `login` with its password: the client when it is right; a challenge to send (a new nonce, `stale`
   * when the old one is unknown or expired); or a refusal (400 bad header, 403 wrong answer,
   * unknown or ambiguous login).
   */
  verify(
    request: SipRequest,
    login: string,
    authorization: string | undefined,
  ): { client: SipClientAccount } | { stale: boolean } | { status: number; reason?: string } {
    if (!authorization) return { stale: false };
    const credentials = parseDigest(authorization);
    const p = credentials?.params ?? {};
    if (credentials?.scheme.toLowerCase() !== 'digest' || p.username === undefined || p.nonce === undefined) {
      return { status: 400, reason: 'Bad Authorization' };
    }
    const nonce = this.nonces.get(p.nonce);
    if (nonce === undefined || nonce.issued + NONCE_LIFE <= this.now()) return { stale: true };
    if (p.username !== login)
      return {
        status: 403,
        reason: `Username Does Not Match ${request.method === 'REGISTER' ? 'To' : 'From'}`,
      };
    const clients = this.directory.clientsOf(login);
    // A login that two accounts use cannot tell us whose client this is: refused, not guessed.
    if (clients.length !== 1) {
      return { status: 403, reason: clients.length ? 'Ambiguous Client Login' : 'Forbidden' };
    }
    const client = clients[0];
    const qop = p.qop?.toLowerCase();
    if ((qop !== undefined && qop !== 'auth') || (p.algorithm ?? 'MD5').toUpperCase() !== 'MD5') {
      return { status: 403 };
    }
    const expected = digestResponse({
      username: login,
      realm: this.realm,
      password: client.password,
      method: request.method,
      uri: p.uri ?? '',
      nonce: p.nonce,
      qop,
      nc: p.nc,
      cnonce: p.cnonce,
    });
    if (p.realm !== this.realm || p.response !== expected) return { status: 403 };
    // An answer is accepted once: with qop, each one must count its nonce's uses further
    // (nc, RFC 7616 section 3.4); without qop, the nonce serves once. A replayed answer, or a
    // retransmission after its answer, is challenged again with a fresh nonce. (The digest's
    // uri is not compared with the Request-URI: SIPp, for one, answers with the bare host.)
    const count = qop === 'auth' ? Number.parseInt(p.nc ?? '', 16) : 1;
    if (!Number.isSafeInteger(count) || count <= nonce.count) return { stale: true };
    nonce.count = count;
    if (qop === undefined) this.nonces.delete(p.nonce);
    return { client };
  }

  /**
   * A digest challenge with a fresh nonce (the `WWW-Authenticate` or `Proxy-Authenticate`
   * value); undefined while too many nonces are outstanding (answer 503).
   */
  challengeHeader(stale: boolean): string | undefined {
    if (this.nonces.size >= MAX_NONCES) this.sweep();
    if (this.nonces.size >= MAX_NONCES) return undefined;
    const nonce = randomBytes(16).toString('hex');
    this.nonces.set(nonce, { issued: this.now(), count: 0 });
    const params: Record<string, string> = { realm: this.realm, nonce, qop: 'auth', algorithm: 'MD5' };
    if (stale) params.stale = 'TRUE';
    return formatDigest({ scheme: 'Digest', params });
  }

  /** Forgets expired bindings and nonces. */
  sweep(): void {
    const now = this.now();
    for (const [login, b] of this.bindings) if (b.expires <= now) this.bindings.delete(login);
    for (const [nonce, { issued }] of this.nonces) if (issued + NONCE_LIFE <= now) this.nonces.delete(nonce);
  }

  private challenge(request: SipRequest, stale: boolean): SipResponse {
    const header = this.challengeHeader(stale);
    if (header === undefined) return responseTo(request, 503, { headers: [['retry-after', '5']] });
    return responseTo(request, 401, {
      reason: 'Unauthorized',
      toTag: randomBytes(4).toString('hex'),
      headers: [['www-authenticate', header]],
    });
  }

  /** Adds, refreshes or removes the binding; the 200 lists what is bound now. */
  private bind(request: SipRequest, login: string, accountSid: string): SipResponse {
    const contacts = headersOf(request.headers, 'contact');
    const header = headerOf(request.headers, 'expires');
    const asked = header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
    if (contacts.length === 1 && contacts[0].trim() === '*') {
      if (asked !== 0) return responseTo(request, 400, { reason: 'Wildcard Needs Expires 0' });
      this.bindings.delete(login);
    } else if (contacts.length > 0) {
      // One binding per client: the last contact given wins.
      const contact = parseNameAddr(contacts[contacts.length - 1]);
      const uri = contact && parseSipUri(contact.uri);
      if (!contact || !uri || uri.scheme !== 'sip')
        return responseTo(request, 400, { reason: 'Bad Contact' });
      const param = contact.params.expires;
      const seconds = Math.min(
        param !== undefined && /^\d+$/.test(param) ? Number(param) : (asked ?? MAX_EXPIRES),
        MAX_EXPIRES,
      );
      if (seconds === 0) this.bindings.delete(login);
      else
        this.bindings.set(login, { accountSid, contact: contact.uri, expires: this.now() + seconds * 1000 });
    }
    const bound = this.bindings.get(login);
    const left = bound ? Math.max(0, Math.round((bound.expires - this.now()) / 1000)) : 0;
    return responseTo(request, 200, {
      toTag: randomBytes(4).toString('hex'),
      headers: bound ? [['contact', `<${bound.contact}>;expires=${left}`]] : [],
    });
  }
}
