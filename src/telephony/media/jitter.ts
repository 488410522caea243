const SLOTS = 64;

/**
 * Orders received frames by sequence number for the recorder, holding 40-60 ms: it starts
 * giving frames once two are held (40 ms), and drops the oldest when more than three are
 * (60 ms). A missing frame is a gap (null) once later ones are held; a late frame is dropped.
 */
export class JitterBuffer {
  private readonly frames: Array<Uint8Array | undefined> = new Array(SLOTS);
  private readonly seqs = new Int32Array(SLOTS).fill(-1);
  private next: number | undefined;
  private held = 0;
  private primed = false;

  constructor(
    private readonly primeFrames = 2,
    private readonly maxFrames = 3,
  ) {}

  /** A received frame (its payload is copied). */
  push(sequence: number, payload: Uint8Array): void {
    if (this.next === undefined) this.next = sequence;
    const ahead = (sequence - this.next + 0x10000) & 0xffff;
    // Behind what was already given: too late. Far ahead: the stream jumped, start again.
    if (ahead >= 0x8000) return;
    if (ahead >= SLOTS) {
      this.reset(sequence);
    }
    const slot = sequence % SLOTS;
    if (this.seqs[slot] === sequence) return;
    if (this.seqs[slot] === -1) this.held++;
    this.seqs[slot] = sequence;
    this.frames[slot] = Uint8Array.from(payload);
    while (this.held > this.maxFrames) this.skip();
    if (this.held >= this.primeFrames) this.primed = true;
  }

  /** The frame due now; null for a gap, or while too few frames are held. */
  pull(): Uint8Array | null {
    if (!this.primed || this.next === undefined) return null;
    if (this.held === 0) {
      // Underrun: wait for the stream to fill the buffer again.
      this.primed = false;
      return null;
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
    this.seqs[slot] = -1;
    this.frames[slot] = undefined;
    this.held--;
  }

  private reset(sequence: number): void {
    this.seqs.fill(-1);
    this.frames.fill(undefined);
    this.held = 0;
    this.primed = false;
    this.next = sequence;
  }
}
