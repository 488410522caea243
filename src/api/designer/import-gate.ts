/**
 * How many archive imports run at once: an import buffers its upload and inflates up to the
 * uncompressed limit, so a burst of them is a memory burst. Counted per account and for the
 * server; a request past either cap is answered 429 at once instead of queueing.
 */
import { ApiError } from '../http/errors.js';

/** Caps of concurrent imports. */
export interface ImportCaps {
  perAccount: number;
  perServer: number;
}

/** Counts imports in flight. */
export class ImportGate {
  private running = 0;
  private readonly byAccount = new Map<string, number>();

  constructor(private readonly caps: ImportCaps) {}

  /** Takes a slot for the account, or throws 429 `too-many-imports`; call the returned release once. */
  enter(accountSid: string): () => void {
    const mine = this.byAccount.get(accountSid) ?? 0;
    if (mine >= this.caps.perAccount) {
      throw busy(`the account already runs ${mine} import(s); at most ${this.caps.perAccount} at once`);
    }
    if (this.running >= this.caps.perServer) {
      throw busy(`the server already runs ${this.running} imports; at most ${this.caps.perServer} at once`);
    }
    this.running++;
    this.byAccount.set(accountSid, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.byAccount.get(accountSid) ?? 1) - 1;
      if (left > 0) this.byAccount.set(accountSid, left);
      else this.byAccount.delete(accountSid);
    };
  }

  /** Imports in flight (for the account when given). */
  inFlight(accountSid?: string): number {
    return accountSid === undefined ? this.running : (this.byAccount.get(accountSid) ?? 0);
  }
}

const busy = (message: string) => new ApiError(429, 'too-many-imports', `${message}; retry when one ends`);
