import { randomBytes } from 'node:crypto';
import type { InboundVoice } from '../../engine/ports/inbound-voice.js';
import { parseNameAddr, parseSipUri } from './address.js';
import { type AuthFailureLimits, AuthFailures } from './auth-failures.js';
import { digestResponse, formatDigest, parseDigest } from './digest.js';
import { headerOf, headersOf, type SipRequest, type SipResponse } from './message.js';
import { DigestNonces } from './nonces.js';
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
  /** The address and port its REGISTER came from. */
  source: string;
  /** When it was bound from that source, ms since the epoch. */
  since: number;
}

/** Options of the {@link Registrar}. */
export interface RegistrarOptions {
  /** The clock, ms. */
  now?: () => number;
  /** Failed answers before lockouts (see `AuthFailures`). */
  failureLimits?: Partial<AuthFailureLimits>;
  /** IPv6 prefix length a source counts under. Default 64. */
  v6Prefix?: number;
  /** Accept digest answers without `qop` (RFC 2069). Default false: refused with 403. */
  acceptQopless?: boolean;
  /**
   * Digest algorithms challenged with, in order (one challenge each): `['SHA-256', 'MD5']`
   * offers SHA-256 first (RFC 8760). Default `['MD5']`: SIPp and older softphones answer the
   * first challenge they read and speak MD5 only. Answers of either algorithm are checked.
   */
  algorithms?: ReadonlyArray<'SHA-256' | 'MD5'>;
  /** A client's binding now comes from a source it was not bound from before (for logs). */
  onNewSource?(login: string, binding: SipBinding, previous: SipBinding | undefined): void;
}

/** Longest registration granted (seconds); the default when none is asked for. */
export const MAX_EXPIRES = 3600;
/**
 * A minimal registrar (RFC 3261 section 10.3): REGISTER authenticated by digest (MD5, qop=auth)
 * against the client's password, realm = our public address, user name = the client's login;
 * one binding per login (the latest), `Expires` capped at an hour, 0 removes it. Nonces need no
 * table (`DigestNonces`), and wrong answers lock their login and source out (`AuthFailures`).
 */
export class Registrar {
  private readonly bindings = new Map<string, SipBinding>();
  private readonly nonces: DigestNonces;
  private readonly failures: AuthFailures;
  private readonly now: () => number;

  constructor(
    private readonly directory: SipClientDirectory,
    private readonly realm: string,
    private readonly options: RegistrarOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.nonces = new DigestNonces(realm, this.now);
    this.failures = new AuthFailures(this.now, options.failureLimits, options.v6Prefix);
  }

  /** The live bindings, by login (for operators: where each client is called). */
  registrations(): Array<{ login: string } & SipBinding> {
    const now = this.now();
    return [...this.bindings].filter(([, b]) => b.expires > now).map(([login, b]) => ({ login, ...b }));
  }

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
  register(request: SipRequest, peer: SipPeer): SipResponse {
    const to = parseNameAddr(headerOf(request.headers, 'to') ?? '');
    const login = (to && parseSipUri(to.uri)?.user) ?? '';
    const checked = this.verify(request, login, headerOf(request.headers, 'authorization'), peer.address);
    if ('client' in checked) return this.bind(request, login, checked.client.accountSid, peer);
    if ('stale' in checked) return this.challenge(request, checked.stale);
    return responseTo(request, checked.status, { reason: checked.reason });
  }

  /**
   * Checks the digest `authorization` of `request` (REGISTER, or INVITE from a client) made by
   * `login` with its password, from `source`: the client when it is right; a challenge to send
   * (a new nonce, `stale` when the old one is not ours or has expired); or a refusal (400 bad
   * header, 403 for a wrong answer, an unknown or ambiguous login, or a login and source locked
   * out after too many of them, alike).
   */
  verify(
    request: SipRequest,
    login: string,
    authorization: string | undefined,
    source: string,
  ): { client: SipClientAccount } | { stale: boolean } | { status: number; reason?: string } {
    if (!authorization) return { stale: false };
    const credentials = parseDigest(authorization);
    const p = credentials?.params ?? {};
    if (credentials?.scheme.toLowerCase() !== 'digest' || p.username === undefined || p.nonce === undefined) {
      return { status: 400, reason: 'Bad Authorization' };
    }
    if (this.nonces.check(p.nonce) !== 'valid') return { stale: true };
    // Locked out: refused as a wrong answer is, unchecked, so that guessing learns nothing.
    if (this.failures.locked(login, source)) return { status: 403 };
    const refused = (status: number, reason?: string) => {
      this.failures.failed(login, source);
      return { status, reason };
    };
    if (p.username !== login)
      return refused(403, `Username Does Not Match ${request.method === 'REGISTER' ? 'To' : 'From'}`);
    const clients = this.directory.clientsOf(login);
    // A login that two accounts use cannot tell us whose client this is: refused, not guessed.
    if (clients.length !== 1) return refused(403, clients.length ? 'Ambiguous Client Login' : 'Forbidden');
    const client = clients[0];
    const qop = p.qop?.toLowerCase();
    const qopAllowed = qop === 'auth' || (qop === undefined && this.options.acceptQopless === true);
    const algorithm = (p.algorithm ?? 'MD5').toUpperCase();
    if (!qopAllowed || (algorithm !== 'MD5' && algorithm !== 'SHA-256')) return refused(403);
    const expected = digestResponse({
      algorithm,
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
    if (p.realm !== this.realm || p.response !== expected) return refused(403);
    this.failures.succeeded(login, source);
    // An answer is accepted once: with qop, each one must count its nonce's uses further
    // (nc, RFC 7616 section 3.4); without qop, the nonce serves once. A replayed answer, or a
    // retransmission after its answer, is challenged again with a fresh nonce. (The digest's
    // uri is not compared with the Request-URI: SIPp, for one, answers with the bare host.)
    const count = qop === 'auth' ? Number.parseInt(p.nc ?? '', 16) : 1;
    if (!Number.isSafeInteger(count) || count < 1 || !this.nonces.take(p.nonce, count))
      return { stale: true };
    return { client };
  }

  /**
   * Digest challenges on a fresh nonce (the `WWW-Authenticate` or `Proxy-Authenticate` values),
   * one per algorithm offered, SHA-256 first when it is (RFC 8760 section 3).
   */
  challengeHeaders(stale: boolean): string[] {
    const nonce = this.nonces.issue();
    return (this.options.algorithms ?? ['MD5']).map((algorithm) => {
      const params: Record<string, string> = { realm: this.realm, nonce, qop: 'auth', algorithm };
      if (stale) params.stale = 'TRUE';
      return formatDigest({ scheme: 'Digest', params });
    });
  }

  /** Forgets expired bindings, nonce counts and failures. */
  sweep(): void {
    const now = this.now();
    for (const [login, b] of this.bindings) if (b.expires <= now) this.bindings.delete(login);
    this.nonces.sweep();
    this.failures.sweep();
  }

  private challenge(request: SipRequest, stale: boolean): SipResponse {
    return responseTo(request, 401, {
      reason: 'Unauthorized',
      toTag: randomBytes(4).toString('hex'),
      headers: this.challengeHeaders(stale).map((header): [string, string] => ['www-authenticate', header]),
    });
  }

  /** Adds, refreshes or removes the binding; the 200 lists what is bound now. */
  private bind(request: SipRequest, login: string, accountSid: string, peer: SipPeer): SipResponse {
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
      else this.setBinding(login, accountSid, contact.uri, seconds, peer);
    }
    const bound = this.bindings.get(login);
    const left = bound ? Math.max(0, Math.round((bound.expires - this.now()) / 1000)) : 0;
    return responseTo(request, 200, {
      toTag: randomBytes(4).toString('hex'),
      headers: bound ? [['contact', `<${bound.contact}>;expires=${left}`]] : [],
    });
  }

  /** Binds `login` at `contact`: one binding per client, the latest; a new source is reported. */
  private setBinding(
    login: string,
    accountSid: string,
    contact: string,
    seconds: number,
    peer: SipPeer,
  ): void {
    const now = this.now();
    const previous = this.bindings.get(login);
    const source = `${peer.address}:${peer.port}`;
    const known = previous !== undefined && previous.expires > now && previous.source === source;
    const binding: SipBinding = {
      accountSid,
      contact,
      expires: now + seconds * 1000,
      source,
      since: known ? previous.since : now,
    };
    this.bindings.set(login, binding);
    if (!known)
      this.options.onNewSource?.(
        login,
        binding,
        previous?.expires && previous.expires > now ? previous : undefined,
      );
  }
}
