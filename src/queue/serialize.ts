/**
 * Runs async tasks one at a time per key, in call order. Matching reads one side and then
 * writes the other; without this two arrivals could both see an empty side and both wait.
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous ? previous.then(task) : task();
    const tail = result.then(ignore, ignore);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

function ignore(): void {}
