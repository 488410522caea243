/**
 * Warnings of one kind (an unreadable message, a refused source) at most `perWindow` times in a
 * window, then one line counting those left out: a flood of junk costs a few log lines, not
 * megabytes, and the operator still sees that it happened.
 */
export class WarnSampler {
  private windowStart = Number.NEGATIVE_INFINITY;
  private counts = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly write: (message: string, detail: Record<string, unknown>) => void,
    private readonly perWindow = 20,
    private readonly windowMs = 10_000,
  ) {}

  warn(kind: string, message: string, detail: Record<string, unknown>): void {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) this.flush(now);
    const seen = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, seen);
    if (seen <= this.perWindow) this.write(message, detail);
  }

  private flush(now: number): void {
    for (const [kind, seen] of this.counts) {
      if (seen > this.perWindow)
        this.write(`${seen - this.perWindow} more '${kind}' warnings left out`, { windowMs: this.windowMs });
    }
    this.counts = new Map();
    this.windowStart = now;
  }
}
