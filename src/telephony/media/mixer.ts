/**
 * The arithmetic of a conference room's tick, apart from sockets and codecs so it can be
 * checked on its own: every heard member's frame is added once into a 32-bit sum, then each
 * member gets the sum minus its own frame, saturated to 16 bits. Two passes over the members,
 * nothing per pair: O(members) per tick.
 */

/** Samples in one 20 ms frame at 8 kHz. */
export const MIX_SAMPLES = 160;

/** One member's place in a tick. */
export interface MixSlot {
  /** What the member sent this tick, decoded (MIX_SAMPLES samples). */
  readonly input: Int16Array;
  /** Its input goes into the sum (not muted, not held, and it sent audio this tick). */
  readonly heard: boolean;
  /** Audio only this member hears (its own call's play: wait music), when it has one. */
  readonly own: Int16Array | undefined;
  /** Where the member's mix is written (MIX_SAMPLES samples). */
  readonly output: Int16Array;
}

/** A sample clamped to 16 bits. */
export function saturate(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : value;
}

/**
 * Mixes one tick: `shared` (the room's plays: beeps, announcements; everyone hears it) plus
 * every heard input makes the sum; each slot's output is the sum minus its own input (a
 * member never hears itself) plus its `own` audio. `sum` is scratch space of MIX_SAMPLES.
 */
export function mixTick(
  slots: readonly MixSlot[],
  shared: Int16Array | Int32Array | undefined,
  sum: Int32Array,
): void {
  if (shared) for (let i = 0; i < MIX_SAMPLES; i++) sum[i] = shared[i];
  else sum.fill(0);
  for (const slot of slots) {
    if (!slot.heard) continue;
    const input = slot.input;
    for (let i = 0; i < MIX_SAMPLES; i++) sum[i] += input[i];
  }
  for (const slot of slots) {
    const out = slot.output;
    const own = slot.own;
    if (slot.heard) {
      const input = slot.input;
      if (own) for (let i = 0; i < MIX_SAMPLES; i++) out[i] = saturate(sum[i] - input[i] + own[i]);
      else for (let i = 0; i < MIX_SAMPLES; i++) out[i] = saturate(sum[i] - input[i]);
    } else if (own) for (let i = 0; i < MIX_SAMPLES; i++) out[i] = saturate(sum[i] + own[i]);
    else for (let i = 0; i < MIX_SAMPLES; i++) out[i] = saturate(sum[i]);
  }
}
