/** RFC 4733 telephone-events: the 16 DTMF events, 0-9 * # A-D. */
const KEYS = '0123456789*#ABCD';

/**
 * Turns telephone-event packets into keys. One key press is many packets with one RTP
 * timestamp (its start) and a growing duration, the last three carrying the E bit: a key counts
 * once per timestamp, on its first packet, whichever arrives first. A packet of the same
 * timestamp after the end whose duration starts again is a new press (a replayed recording).
 */
export class DtmfReceiver {
  private lastTimestamp: number | undefined;
  private lastSsrc: number | undefined;
  private lastDuration = 0;
  private ended = false;

  /** The key a packet starts, or undefined (repeat, end packet of a counted key, not a DTMF event). */
  receive(ssrc: number, timestamp: number, payload: Uint8Array): string | undefined {
    if (payload.length < 4) return undefined;
    const event = payload[0];
    const end = (payload[1] & 0x80) !== 0;
    const duration = (payload[2] << 8) | payload[3];
    if (event >= KEYS.length) return undefined;
    const same = timestamp === this.lastTimestamp && ssrc === this.lastSsrc;
    const restarted = same && this.ended && !end && duration < this.lastDuration;
    this.lastDuration = duration;
    if (same && !restarted) {
      this.ended ||= end;
      return undefined;
    }
    this.lastTimestamp = timestamp;
    this.lastSsrc = ssrc;
    this.ended = end;
    return KEYS[event];
  }
}
