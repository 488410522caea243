import type { ExchangeControl } from './http.js';

/**
 * The requests of something that ends (a call): ending it aborts those still in flight. Lighter
 * than an AbortController per call: no event target, and the abort reason is made only when a
 * request is there to be told.
 */
export class RequestScope {
  private open: Set<ExchangeControl> | null = null;
  private reason: (() => Error) | null = null;

  /** Binds a request to the scope; one bound after the end is aborted at once. */
  add(request: ExchangeControl): void {
    if (this.reason) {
      request.abort(this.reason());
      return;
    }
    this.open ??= new Set();
    this.open.add(request);
  }

  /** Unbinds a request that is over. */
  delete(request: ExchangeControl): void {
    // Let go of the set once empty: a call parked after its requests then holds none.
    if (this.open?.delete(request) && this.open.size === 0) this.open = null;
  }

  /** Ends the scope: the requests in flight abort with `reason()`. */
  end(reason: () => Error): void {
    if (this.reason) return;
    this.reason = reason;
    const open = this.open;
    this.open = null;
    if (!open?.size) return;
    const why = reason();
    for (const request of open) request.abort(why);
  }
}
