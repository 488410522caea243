/**
 * Console sessions: an opaque id in an HttpOnly, SameSite=Strict cookie, a CSRF token the page
 * sends back on every state-changing request, an idle and an absolute expiry. Kept in memory:
 * a restart logs everyone out. The account's auth token, checked at login, stays with the
 * session in memory only, so the console's REST calls authenticate exactly as any client's (a
 * rotated token ends the session at its next call); it is never written nor sent back.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Expiry and size limits of console sessions. */
export interface SessionOptions {
  /** A session unused this long ends. Default 30 minutes. */
  idleMs?: number;
  /** A session ends this long after login, used or not. Default 12 hours. */
  maxAgeMs?: number;
  /**
   * Most sessions held at once; past it the oldest session of the account holding the most is
   * dropped. Default 10,000.
   */
  maxSessions?: number;
  /**
   * Most sessions of one account; a login past it drops that account's oldest session, never
   * another account's. Default 100.
   */
  maxSessionsPerAccount?: number;
  /** Clock, ms. Default `Date.now`. */
  now?: () => number;
}

/** A logged-in console user. */
export interface ConsoleSession {
  accountSid: string;
  /** Basic credentials of the REST calls made for this session. */
  authorization: string;
  csrf: string;
  created: number;
  lastSeen: number;
  /** When the session ends if used no more (the earlier of idle and absolute expiry). */
  expiresAt: number;
}

/** The console's session store. */
export interface SessionStore {
  /** Starts a session; returns its id (the cookie's value) and the session. */
  create(accountSid: string, authToken: string): { id: string; session: ConsoleSession };
  /** The live session of a cookie value, its idle expiry moved on; undefined when unknown or expired. */
  touch(id: string | undefined): ConsoleSession | undefined;
  /** Whether a session is live, without extending it. */
  alive(id: string): boolean;
  /** Ends a session. */
  destroy(id: string | undefined): void;
}

const key = (id: string) => createHash('sha256').update(id).digest('base64url');

/** True when the CSRF token sent matches the session's, compared in constant time. */
export function csrfMatches(session: ConsoleSession, sent: string | undefined): boolean {
  if (!sent) return false;
  const a = createHash('sha256').update(session.csrf).digest();
  const b = createHash('sha256').update(sent).digest();
  return timingSafeEqual(a, b);
}

/** Creates an in-memory session store. */
export function createSessionStore(options: SessionOptions = {}): SessionStore {
  const idleMs = options.idleMs ?? 30 * 60_000;
  const maxAgeMs = options.maxAgeMs ?? 12 * 3_600_000;
  const maxSessions = options.maxSessions ?? 10_000;
  const perAccount = options.maxSessionsPerAccount ?? 100;
  const now = options.now ?? Date.now;
  // Keyed by a digest of the id: the map holds nothing a cookie could be rebuilt from.
  const sessions = new Map<string, ConsoleSession>();
  // Each account's session keys, oldest first: evictions stay within an account.
  const byAccount = new Map<string, Set<string>>();
  const expiry = (s: ConsoleSession, t: number) => Math.min(t + idleMs, s.created + maxAgeMs);

  const remove = (k: string) => {
    const session = sessions.get(k);
    if (!session) return;
    sessions.delete(k);
    const keys = byAccount.get(session.accountSid);
    keys?.delete(k);
    if (keys?.size === 0) byAccount.delete(session.accountSid);
  };
  /** Drops the account's expired sessions, then its oldest ones until it has room for one more. */
  const makeRoom = (keys: Set<string>, t: number) => {
    for (const k of keys) if (t >= (sessions.get(k)?.expiresAt ?? 0)) remove(k);
    while (keys.size >= perAccount) remove(keys.values().next().value as string);
  };
  /** The account holding the most sessions (the one a full store takes from). */
  const largest = () => {
    let most: Set<string> | undefined;
    for (const keys of byAccount.values()) if (!most || keys.size > most.size) most = keys;
    return most;
  };

  return {
    create(accountSid, authToken) {
      const t = now();
      const id = randomBytes(32).toString('base64url');
      const session: ConsoleSession = {
        accountSid,
        authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
        csrf: randomBytes(24).toString('base64url'),
        created: t,
        lastSeen: t,
        expiresAt: 0,
      };
      session.expiresAt = expiry(session, t);
      let keys = byAccount.get(accountSid);
      if (!keys) {
        keys = new Set();
        byAccount.set(accountSid, keys);
      }
      makeRoom(keys, t);
      if (sessions.size >= maxSessions) {
        // Full: expired sessions go first (a sweep only when full), then the largest account's oldest.
        for (const [k, s] of sessions) if (t >= s.expiresAt) remove(k);
      }
      if (sessions.size >= maxSessions) {
        const most = largest();
        if (most) remove(most.values().next().value as string);
      }
      const k = key(id);
      sessions.set(k, session);
      keys.add(k);
      byAccount.set(accountSid, keys);
      return { id, session };
    },
    touch(id) {
      if (!id) return undefined;
      const k = key(id);
      const session = sessions.get(k);
      if (!session) return undefined;
      const t = now();
      if (t >= session.expiresAt) {
        remove(k);
        return undefined;
      }
      session.lastSeen = t;
      session.expiresAt = expiry(session, t);
      return session;
    },
    alive(id) {
      const session = sessions.get(key(id));
      return session !== undefined && now() < session.expiresAt;
    },
    destroy(id) {
      if (id) remove(key(id));
    },
  };
}
