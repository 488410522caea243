import { headerOf, headersOf, type SipRequest, type SipResponse } from './message.js';
import { isLoopback, RateLimiter } from './rate-limit.js';
import { responseTo } from './responses.js';
import { type Negotiated, negotiate } from './sdp.js';
import { sourceKey } from './source-key.js';

/** Extensions we accept in a Require header. */
const SUPPORTED = new Set(['timer']);

/** Per-source limits of the SIP service (see docs/security.md, "SIP"). */
export interface SipSourceLimits {
  /** New INVITEs, REGISTERs and OPTIONS accepted per second from one source. Default 20. */
  invitesPerSecond?: number;
  /** Calls of one source in set-up (not yet acknowledged) at a time; more get 503. Default 10. */
  setupsPerSource?: number;
  /** TCP connections one source may hold open. Default 32. */
  tcpPerSource?: number;
  /** TCP connections in all. Default half the process's open-file limit, at most 8192. */
  tcpTotal?: number;
  /** IPv6 prefix length one source counts as. Default 64. */
  v6Prefix?: number;
  /** Whether loopback sources are exempt from the rate and set-up limits (tests, benches). Default true. */
  exemptLoopback?: boolean;
}

/** Options of an {@link Admission} policy. */
export interface AdmissionOptions extends SipSourceLimits {
  /** Whether a source may send requests outside our dialogs; others are dropped unanswered. Default: any. */
  acceptsFrom?(address: string): boolean;
  /** The clock of the rate limit, ms. */
  now(): number;
}

/**
 * Who may start something with us, a policy of the user agent: the source allow list, the
 * per-source rate of new INVITEs and REGISTERs, the extensions a new INVITE may require, and
 * its SDP offer (RFC 3264 negotiation; 488 when nothing in it can be served).
 */
export class Admission {
  private readonly limiter: RateLimiter;
  /** Calls in set-up by source. */
  private readonly setups = new Map<string, number>();

  constructor(private readonly options: AdmissionOptions) {
    this.limiter = new RateLimiter(
      options.invitesPerSecond ?? 20,
      options.v6Prefix,
      options.exemptLoopback ?? true,
    );
  }

  /**
   * Takes a set-up slot of `address` for a new call; undefined when the source has as many calls
   * in set-up as it may (answer 503), else the release to call once the call is set up or over.
   */
  startSetup(address: string): (() => void) | undefined {
    if (isLoopback(address) && (this.options.exemptLoopback ?? true)) return () => {};
    const key = sourceKey(address, this.options.v6Prefix);
    const count = this.setups.get(key) ?? 0;
    if (count >= (this.options.setupsPerSource ?? 10)) return undefined;
    this.setups.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.setups.get(key) ?? 1) - 1;
      if (left <= 0) this.setups.delete(key);
      else this.setups.set(key, left);
    };
  }

  /** Whether a request outside our dialogs from `address` is taken (the allow list). */
  accepts(address: string): boolean {
    return this.options.acceptsFrom?.(address) ?? true;
  }

  /** Takes one of `address`'s new INVITEs or REGISTERs; false when it is over its rate. */
  withinRate(address: string): boolean {
    return this.limiter.take(address, this.options.now());
  }

  /** Forgets sources that have been quiet a while. */
  sweep(): void {
    this.limiter.sweep(this.options.now());
  }

  /**
   * A new INVITE's extensions and offer: the negotiated media, or the refusal to send (420 for
   * an unsupported `Require`, 488 without an SDP offer or with one we cannot serve).
   */
  checkInvite(request: SipRequest): { negotiated: Negotiated } | { refusal: SipResponse } {
    const unsupported = headersOf(request.headers, 'require').filter((r) => !SUPPORTED.has(r.toLowerCase()));
    if (unsupported.length > 0) {
      return { refusal: responseTo(request, 420, { headers: [['unsupported', unsupported.join(', ')]] }) };
    }
    const type = (headerOf(request.headers, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!request.body || type !== 'application/sdp') {
      return { refusal: responseTo(request, 488, { reason: 'SDP Offer Required' }) };
    }
    const negotiated = negotiate(request.body);
    if ('status' in negotiated) {
      const reason = negotiated.status === 488 ? undefined : negotiated.reason;
      return { refusal: responseTo(request, negotiated.status, { reason }) };
    }
    return { negotiated };
  }
}
