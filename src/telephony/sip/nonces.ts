import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a challenge's nonce may be answered (ms). */
export const NONCE_LIFE_MS = 5 * 60_000;
/** Authenticated nonces whose use counts are kept (only a right password adds one). */
const MAX_COUNTED = 100_000;

/**
 * Digest nonces that need no table (as Kamailio's auth module makes them): 11 hex digits of the
 * time it was issued (ms), 5 random ones (two challenges in one millisecond differ) and 16 of an
 * HMAC-SHA-256 of both and the realm under a secret of the process. Any number of strangers' REGISTERs costs nothing to remember; a nonce is checked by
 * computing its MAC again. The use counts (`nc`, RFC 7616 section 3.4) that make an answer
 * count once are kept only for answers that were right, which a stranger cannot make.
 */
export class DigestNonces {
  private readonly counted = new Map<string, { count: number; issued: number }>();

  constructor(
    private readonly realm: string,
    private readonly now: () => number,
    private readonly secret: Buffer = randomBytes(32),
    private readonly life = NONCE_LIFE_MS,
  ) {}

  /** A fresh nonce: 32 hex digits. */
  issue(): string {
    const issued = Math.max(0, Math.floor(this.now())).toString(16).padStart(11, '0').slice(-11);
    const salt = randomBytes(3).toString('hex').slice(0, 5);
    return issued + salt + this.mac(issued + salt);
  }

  /** Whether `nonce` is one of ours (`forged` otherwise) and still young enough (`expired`). */
  check(nonce: string): 'valid' | 'expired' | 'forged' {
    if (!/^[0-9a-f]{32}$/.test(nonce)) return 'forged';
    const given = Buffer.from(nonce.slice(16), 'hex');
    if (!timingSafeEqual(given, Buffer.from(this.mac(nonce.slice(0, 16)), 'hex'))) return 'forged';
    const at = Number.parseInt(nonce.slice(0, 11), 16);
    const now = this.now();
    return at <= now + 1000 && now < at + this.life ? 'valid' : 'expired';
  }

  /**
   * Takes the use count `count` of a valid nonce for a right answer: true when it is above every
   * count accepted before for that nonce (recorded), false for a replay.
   */
  take(nonce: string, count: number): boolean {
    const seen = this.counted.get(nonce);
    if (seen && count <= seen.count) return false;
    if (!seen && this.counted.size >= MAX_COUNTED) this.sweep();
    this.counted.set(nonce, { count, issued: Number.parseInt(nonce.slice(0, 11), 16) });
    return true;
  }

  /** Forgets the counts of nonces too old to be answered. */
  sweep(): void {
    const now = this.now();
    for (const [nonce, { issued }] of this.counted) if (issued + this.life <= now) this.counted.delete(nonce);
    // Still full of live ones (a hundred thousand right answers in five minutes): oldest go first.
    for (const nonce of this.counted.keys()) {
      if (this.counted.size < MAX_COUNTED) break;
      this.counted.delete(nonce);
    }
  }

  private mac(stamp: string): string {
    return createHmac('sha256', this.secret).update(`${stamp}|${this.realm}`).digest('hex').slice(0, 16);
  }
}
