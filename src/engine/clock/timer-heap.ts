/** A pending timer on the virtual clock. Cancelled timers stay in the heap until popped. */
export interface VirtualTimer {
  deadline: number;
  seq: number;
  fn: (() => void) | null;
}

function before(a: VirtualTimer, b: VirtualTimer): boolean {
  return a.deadline < b.deadline || (a.deadline === b.deadline && a.seq < b.seq);
}

/** Binary min-heap ordered by (deadline, creation sequence): ties fire in creation order. */
export class TimerHeap {
  private readonly items: VirtualTimer[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): VirtualTimer | undefined {
    return this.items[0];
  }

  push(timer: VirtualTimer): void {
    const items = this.items;
    let i = items.length;
    items.push(timer);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(timer, items[parent])) break;
      items[i] = items[parent];
      i = parent;
    }
    items[i] = timer;
  }

  pop(): VirtualTimer | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    const n = items.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && before(items[r], items[l]) ? r : l;
      if (!before(items[child], last)) break;
      items[i] = items[child];
      i = child;
    }
    items[i] = last;
    return top;
  }
}
