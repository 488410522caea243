import { headerOf, headersOf, type SipRequest, type SipResponse } from './message.js';
import { RateLimiter } from './rate-limit.js';
import { responseTo } from './responses.js';
import { type Negotiated, negotiate } from './sdp.js';

/** Extensions we accept in a Require header. */
const SUPPORTED = new Set(['timer']);

/** Options of an {@link Admission} policy. */
export interface AdmissionOptions {
  /** New INVITEs and REGISTERs accepted per second from one source address (loopback exempt). Default 20. */
  invitesPerSecond?: number;
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

  constructor(private readonly options: AdmissionOptions) {
    this.limiter = new RateLimiter(options.invitesPerSecond ?? 20);
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
