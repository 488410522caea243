import { createApp } from '../../src/api/app.js';
import type { CallControl } from '../../src/api/platform/call-control.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/ports.js';
import { ACCOUNT_A, ACCOUNT_B, account, tokenOf } from '../store/fixtures.js';

export const BASE = 'http://api.test';
export const ROOT_A = `/platform/2012-04-24/Accounts/${ACCOUNT_A}`;

export function basic(sid: string, token: string): string {
  return `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
}
export const AUTH_A = basic(ACCOUNT_A, tokenOf(ACCOUNT_A));
export const AUTH_B = basic(ACCOUNT_B, tokenOf(ACCOUNT_B));

/** An app over a memory store with accounts A and B. */
export async function setup(callControl?: CallControl, store: Store = createMemoryStore()) {
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const errors: unknown[] = [];
  const app = createApp({
    store,
    callControl,
    baseUrl: BASE,
    now: () => Date.UTC(2024, 5, 1),
    onError: (e) => errors.push(e),
    maxBodyBytes: 4096,
  });
  const request = (path: string, init: RequestInit & { auth?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const auth = init.auth === undefined ? AUTH_A : init.auth;
    if (auth) headers.set('Authorization', auth);
    return app.fetch(new Request(BASE + path, { ...init, headers }));
  };
  const json = async (path: string, init?: RequestInit & { auth?: string | null }) => {
    const res = await request(path, init);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { message?: string } };
  };
  const form = (fields: Record<string, string>, method = 'POST'): RequestInit => ({
    method,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { app, store, request, json, form, errors };
}
