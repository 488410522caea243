/**
 * The signing keys of the accounts, as webhooks need them: read from the store for each request
 * (a key rotated through any node applies at once), but a call must not depend on the database
 * to reach its customer: when the store cannot answer (an outage, or no answer within
 * `timeoutMs`), the key last read for the account is used; when none was ever read, the read is
 * tried again with backoff (the request waits, as documents and status callbacks then do) for at
 * most `waitMs` before the request fails.
 */
import type { AccountRepository } from '../store/ports.js';

/** Options of {@link signingKeysOf}. */
export interface SigningKeyOptions {
  /** How long one read may take before the last key known is used. Default 1,000 ms. */
  timeoutMs?: number;
  /** How long a request without a known key waits for the store at most. Default 10,000 ms. */
  waitMs?: number;
  /** Accounts whose last key is remembered, at most (the oldest are let go). Default 10,000. */
  maxAccounts?: number;
}

/**
 * `work`, or a rejection once `ms` have passed. Reads in flight share one timer, armed for the
 * earliest deadline, rather than one each: a read that answers at once (SQLite) costs no timer.
 */
function deadlines() {
  const open = new Set<{ deadline: number; late: () => void }>();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    timer = undefined;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const entry of open) {
      if (entry.deadline <= now) {
        open.delete(entry);
        entry.late();
      } else next = Math.min(next, entry.deadline);
    }
    if (open.size > 0) arm(next - now);
  };
  const arm = (ms: number) => {
    // Not holding the process open: a read in flight does not keep a stopped server alive.
    timer = setTimeout(check, ms).unref();
  };
  return <T>(work: Promise<T>, ms: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const entry = {
        deadline: Date.now() + ms,
        late: () => reject(new Error(`the store did not answer within ${ms} ms`)),
      };
      open.add(entry);
      if (timer === undefined) arm(ms);
      work.then(
        (value) => {
          open.delete(entry);
          resolve(value);
        },
        (err) => {
          open.delete(entry);
          reject(err);
        },
      );
    });
}

export function signingKeysOf(
  accounts: Pick<AccountRepository, 'get'>,
  options: SigningKeyOptions = {},
): (accountSid: string) => Promise<string | undefined> {
  const timeoutMs = options.timeoutMs ?? 1000;
  const waitMs = options.waitMs ?? 10_000;
  const maxAccounts = options.maxAccounts ?? 10_000;
  const known = new Map<string, string | undefined>();
  const within = deadlines();
  const remember = (sid: string, key: string | undefined) => {
    known.delete(sid);
    known.set(sid, key);
    if (known.size > maxAccounts) known.delete(known.keys().next().value as string);
  };
  return async (accountSid) => {
    const until = Date.now() + waitMs;
    for (let backoff = 100; ; backoff = Math.min(backoff * 2, 2000)) {
      try {
        const key = (await within(accounts.get(accountSid), timeoutMs))?.signingKey;
        remember(accountSid, key);
        return key;
      } catch (err) {
        if (known.has(accountSid)) return known.get(accountSid);
        if (Date.now() + backoff >= until) throw err;
        await new Promise((resolve) => setTimeout(resolve, backoff));
      }
    }
  };
}
