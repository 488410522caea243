/** RFC 4733 telephone-events: the 16 DTMF events, 0-9 * # A-D. */
const KEYS = '0123456789*#ABCD';

/** How long after a press's last packet one of its timestamp may start it again (ms). */
export const REPLAY_GAP_MS = 500;

/**
 * Turns telephone-event packets into keys. One key press is many packets with one RTP
 * timestamp (its start) and a growing duration, the last three carrying the E bit: a key counts
 * once per timestamp (RFC 4733 sections 2.3 and 2.5), on its first packet, whatever their order,
 * loss or repetition. Only a press of the same timestamp that starts again well after the last
 * one ended (a recording played again, {@link REPLAY_GAP_MS} on) counts anew: a packet reordered
 * by the network arrives within its jitter, and never does.
 */
/** Events remembered, so that a late packet of an earlier key is still known as that key's. */
const RECENT_EVENTS = 32;

interface Press {
  /** The longest duration seen, whether an end packet came, and when its last packet arrived. */
  duration: number;
  ended: boolean;
  at: number;
}

export class DtmfReceiver {
  /** Recent presses by SSRC and timestamp, oldest first. */
  private readonly presses = new Map<string, Press>();

  /**
   * The key a packet arriving at `at` (ms) starts, or undefined (a repeat, a reordered or end
   * packet of a counted key, not a DTMF event).
   */
  receive(ssrc: number, timestamp: number, payload: Uint8Array, at: number): string | undefined {
    if (payload.length < 4) return undefined;
    const event = payload[0];
    const end = (payload[1] & 0x80) !== 0;
    const duration = (payload[2] << 8) | payload[3];
    if (event >= KEYS.length) return undefined;
    const id = `${ssrc}|${timestamp}`;
    const press = this.presses.get(id);
    if (press) {
      const replayed = press.ended && !end && duration < press.duration && at - press.at >= REPLAY_GAP_MS;
      if (!replayed) {
        press.duration = Math.max(press.duration, duration);
        press.ended ||= end;
        press.at = at;
        return undefined;
      }
      this.presses.delete(id);
    }
    this.presses.set(id, { duration, ended: end, at });
    if (this.presses.size > RECENT_EVENTS) this.presses.delete(this.presses.keys().next().value as string);
    return KEYS[event];
  }
}
