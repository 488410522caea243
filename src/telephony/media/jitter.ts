const SLOTS = 64;

/**
 * Orders received packets by sequence number for the recorder, holding 40-60 ms of audio: it
 * gives packets once 40 ms are held, and drops the oldest when more than 60 ms are. `pull`
 * answers a packet, null for a gap (a missing packet while later ones are held), or undefined
 * when it holds nothing to give (not started, or run dry: it waits for 40 ms again). A packet
 * behind what was already given is dropped. Sizes count samples (one byte each in G.711).
 */
export class JitterBuffer {
  private readonly frames: Array<Uint8Array | undefined> = new Array(SLOTS);
  private readonly seqs = new Int32Array(SLOTS).fill(-1);
  private next: number | undefined;
  private heldPackets = 0;
  private heldSamples = 0;
  private primed = false;
  private primeSamples: number;

  constructor(
    primeSamples = 320,
    private readonly maxSamples = 480,
    /**
     * Samples the prime grows by each time the buffer runs dry, up to `maxSamples` less a
     * frame (0: fixed): a recording, whose latency does not matter, waits longer on a jittery
     * line instead of cutting holes in it.
     */
    private readonly adaptSamples = 0,
  ) {
    this.primeSamples = primeSamples;
  }

  /** A received packet's payload (copied). */
  push(sequence: number, payload: Uint8Array): void {
    if (this.next === undefined) this.next = sequence;
    let ahead = (sequence - this.next + 0x10000) & 0xffff;
    if (ahead >= 0x8000) {
      // Before anything was given, an earlier packet moves the start back; after, it is late.
      if (this.primed || 0x10000 - ahead >= SLOTS) return;
      this.next = sequence;
      ahead = 0;
    }
    // Far ahead: the stream jumped (new source); start again from it.
    if (ahead >= SLOTS) this.reset(sequence);
    const slot = sequence % SLOTS;
    if (this.seqs[slot] === sequence) return;
    if (this.seqs[slot] !== -1) this.clear(slot);
    this.seqs[slot] = sequence;
    this.frames[slot] = Uint8Array.from(payload);
    this.heldPackets++;
    this.heldSamples += payload.length;
    while (this.heldSamples - payload.length >= this.maxSamples && this.heldPackets > 1) this.skip();
    if (this.heldSamples >= this.primeSamples) this.primed = true;
  }

  pull(): Uint8Array | null | undefined {
    if (!this.primed || this.next === undefined) return undefined;
    if (this.heldPackets === 0) {
      this.primed = false;
      if (this.adaptSamples > 0)
        this.primeSamples = Math.min(this.primeSamples + this.adaptSamples, this.maxSamples - 160);
      return undefined;
    }
    const slot = this.next % SLOTS;
    let frame: Uint8Array | null = null;
    if (this.seqs[slot] === this.next) {
      frame = this.frames[slot] ?? null;
      this.clear(slot);
    }
    this.next = (this.next + 1) & 0xffff;
    return frame;
  }

  private skip(): void {
    if (this.next === undefined) return;
    const slot = this.next % SLOTS;
    if (this.seqs[slot] === this.next) this.clear(slot);
    this.next = (this.next + 1) & 0xffff;
  }

  private clear(slot: number): void {
    this.heldSamples -= this.frames[slot]?.length ?? 0;
    this.seqs[slot] = -1;
    this.frames[slot] = undefined;
    this.heldPackets--;
  }

  private reset(sequence: number): void {
    this.seqs.fill(-1);
    this.frames.fill(undefined);
    this.heldPackets = 0;
    this.heldSamples = 0;
    this.primed = false;
    this.next = sequence;
  }
}
