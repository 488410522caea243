/** RFC 4733 telephone-events: the 16 DTMF events, 0-9 * # A-D. */
const KEYS = '0123456789*#ABCD';

/**
 * Turns telephone-event packets into keys. One key press is many packets with one RTP
 * timestamp (its start), the last three carrying the E bit: a key counts once per timestamp,
 * on its first packet, whichever arrives first.
 */
export class DtmfReceiver {
  private lastTimestamp: number | undefined;
  private lastSsrc: number | undefined;

  /** The key a packet starts, or undefined (repeat, end packet of a counted key, not a DTMF event). */
  receive(ssrc: number, timestamp: number, payload: Uint8Array): string | undefined {
    if (payload.length < 4) return undefined;
    const event = payload[0];
    if (event >= KEYS.length) return undefined;
    if (timestamp === this.lastTimestamp && ssrc === this.lastSsrc) return undefined;
    this.lastTimestamp = timestamp;
    this.lastSsrc = ssrc;
    return KEYS[event];
  }
}
