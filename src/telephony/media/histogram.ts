/** Milliseconds counted in 0.1 ms buckets up to 2 s (the last bucket takes anything longer). */
export class Histogram {
  private readonly buckets = new Uint32Array(20_001);
  private count = 0;
  private maxValue = 0;

  add(ms: number): void {
    const i = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 10)));
    this.buckets[i]++;
    this.count++;
    if (ms > this.maxValue) this.maxValue = ms;
  }

  /** The value below which `q` (0..1) of the samples lie; 0 when there are none. */
  quantile(q: number): number {
    if (this.count === 0) return 0;
    const target = Math.ceil(q * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i];
      if (seen >= target) return i / 10;
    }
    return this.maxValue;
  }

  get max(): number {
    return this.maxValue;
  }

  get size(): number {
    return this.count;
  }

  reset(): void {
    this.buckets.fill(0);
    this.count = 0;
    this.maxValue = 0;
  }
}
