import { FRAME_SAMPLES } from './g711.js';

/**
 * Plays encoded audio frame by frame, `loop` times (0: until stopped). The audio is encoded
 * once when the play starts; each tick copies one 160-byte frame, the last one padded with
 * silence.
 */
export class Player {
  private offset = 0;
  private round = 0;

  constructor(
    readonly play: number,
    private readonly audio: Uint8Array,
    private readonly loop: number,
    private readonly silence: number,
  ) {}

  /** Fills `frame` with the next 20 ms; false once the play is over (frame untouched). */
  next(frame: Uint8Array): boolean {
    if (this.audio.length === 0 || (this.loop !== 0 && this.round >= this.loop)) return false;
    const end = Math.min(this.offset + FRAME_SAMPLES, this.audio.length);
    frame.set(this.audio.subarray(this.offset, end));
    if (end - this.offset < FRAME_SAMPLES) frame.fill(this.silence, end - this.offset);
    this.offset = end;
    if (this.offset >= this.audio.length) {
      this.offset = 0;
      this.round++;
    }
    return true;
  }
}
