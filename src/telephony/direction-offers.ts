import type { Direction } from './sip/sdp.js';
import { realSipTimers, type SipTimers } from './sip/timers.js';

/** Seconds a UAC waits before retrying after 491 (RFC 3261 section 14.1: 2.1-4 s, randomised). */
const GLARE_RETRY_MS = [2100, 4000] as const;

/**
 * Keeps the far end told of our media direction (Hold: `sendonly`, Resume: `sendrecv`): one
 * re-INVITE at a time, the latest wish sent when the previous one is over, a 491 (glare)
 * retried after 2.1-4 s. A refused offer is not retried (the media follow our wish locally).
 */
export class DirectionOffers {
  private agreed: Direction = 'sendrecv';
  private wanted: Direction = 'sendrecv';
  private busy = false;
  private timer: object | undefined;

  constructor(
    /** Sends the offer; false when it cannot now (the dialog is not confirmed yet). */
    private readonly send: (direction: Direction, done: (status: number) => void) => boolean,
    private readonly over: () => boolean,
    private readonly timers: SipTimers = realSipTimers,
  ) {}

  want(direction: Direction): void {
    this.wanted = direction;
    this.next();
  }

  /** The dialog may take an offer now (its ACK came): a wish left pending goes. */
  retry(): void {
    this.next();
  }

  dispose(): void {
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private next(): void {
    if (this.busy || this.timer || this.over() || this.wanted === this.agreed) return;
    const direction = this.wanted;
    this.busy = this.send(direction, (status) => {
      this.busy = false;
      if (status === 491) {
        const [min, max] = GLARE_RETRY_MS;
        this.timer = this.timers.setTimeout(
          () => {
            this.timer = undefined;
            this.next();
          },
          min + Math.random() * (max - min),
        );
        return;
      }
      this.agreed = direction;
      this.next();
    });
  }
}
