import type { SourcePosition } from '../model.js';

/** Maps UTF-16 offsets of a source text to 1-based line:column, building the line index once. */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly source: string) {}

  /** Position of `offset` (clamped to the text). */
  at(offset: number): SourcePosition {
    const starts = this.starts ?? this.build();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    const clamped = Math.max(0, Math.min(offset, this.source.length));
    return { line: lo + 1, column: clamped - starts[lo] + 1 };
  }

  private build(): number[] {
    const starts = [0];
    let nl = this.source.indexOf('\n');
    while (nl !== -1) {
      starts.push(nl + 1);
      nl = this.source.indexOf('\n', nl + 1);
    }
    this.starts = starts;
    return starts;
  }
}
