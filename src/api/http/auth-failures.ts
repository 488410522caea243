/**
 * Failed authentications per source address: past a number within a window, requests from that
 * address that bring credentials (Basic `Authorization`, a console login) are answered 429 with
 * `Retry-After` until the window ends. It bounds guessing over the REST API and the console
 * alike, and how fast one client can fill the console's per-account failure table.
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError, errorResponse } from './errors.js';

/** Limits of failed authentications per source address. */
export interface AuthFailureOptions {
  /** Failures allowed per address within `windowMs`. Default 100. */
  failures?: number;
  /** Default one minute. */
  windowMs?: number;
  /** Clock, ms. Default `Date.now`. */
  now?: () => number;
}

/** Addresses followed at once; past it, ended windows go first, then the oldest. */
const MAX_TRACKED = 100_000;

/** Failures counted per key within a window. */
export interface FailureWindow {
  /** Seconds until `key` may try again, or undefined when it may now. */
  blockedFor(key: string): number | undefined;
  failed(key: string): void;
  /** Forgets the key's failures. */
  clear(key: string): void;
}

/**
 * Counts failures per key, each key's window starting at its first failure. At most `maxTracked`
 * keys are followed: a new one past it drops the ended windows, then the oldest live ones.
 */
export function createFailureWindow(
  max: number,
  windowMs: number,
  now: () => number = Date.now,
  maxTracked: number = MAX_TRACKED,
): FailureWindow {
  const tracked = new Map<string, { count: number; since: number }>();
  const current = (key: string) => {
    const entry = tracked.get(key);
    if (entry && now() - entry.since >= windowMs) {
      tracked.delete(key);
      return undefined;
    }
    return entry;
  };
  const makeRoom = () => {
    const t = now();
    for (const [key, entry] of tracked) if (t - entry.since >= windowMs) tracked.delete(key);
    while (tracked.size >= maxTracked) tracked.delete(tracked.keys().next().value as string);
  };
  return {
    blockedFor(key) {
      const entry = current(key);
      if (!entry || entry.count < max) return undefined;
      return Math.max(1, Math.ceil((entry.since + windowMs - now()) / 1000));
    },
    failed(key) {
      const entry = current(key);
      if (entry) {
        entry.count++;
        return;
      }
      if (tracked.size >= maxTracked) makeRoom();
      tracked.set(key, { count: 1, since: now() });
    },
    clear(key) {
      tracked.delete(key);
    },
  };
}

/**
 * The address a request came from, as the connection saw it (behind a reverse proxy: the
 * proxy's); an IPv6 address counts as its /64, which one client usually holds whole. Undefined
 * when the server gives none (a fetch handler called without Node's request).
 */
export function sourceAddress(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress;
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${prefix64(address)}::/64`;
}

/** The first four groups of an IPv6 address, written out. */
function prefix64(address: string): string {
  const [head, tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':');
}

/**
 * Middleware: a request that brings credentials (an `Authorization` header, or a POST to
 * `loginPath`) and is answered 401 counts a failure against its source address; past the limit
 * such requests from the address are answered 429 (`too-many-requests`, code 20429) with
 * `Retry-After`, before their credentials are checked. Requests from an unknown address pass,
 * and so do `uncounted` ones (in a cluster: a request another node forwarded).
 */
export function limitAuthFailures(
  options: AuthFailureOptions,
  loginPath: string,
  uncounted: (c: Context) => boolean = () => false,
): MiddlewareHandler {
  const window = createFailureWindow(options.failures ?? 100, options.windowMs ?? 60_000, options.now);
  return async (c, next) => {
    const address = sourceAddress(c);
    const authenticates =
      c.req.header('Authorization') !== undefined || (c.req.method === 'POST' && c.req.path === loginPath);
    if (address === undefined || !authenticates || uncounted(c)) return next();
    const wait = window.blockedFor(address);
    if (wait !== undefined) {
      return errorResponse(
        c,
        new ApiError(
          429,
          'too-many-requests',
          `too many failed authentications from this address: retry after ${wait} s`,
        ),
        { 'Retry-After': String(wait) },
      );
    }
    await next();
    if (c.res.status === 401) window.failed(address);
  };
}
