import { createApp } from '../../../src/api/app.js';
import { createMemoryEnterpriseStore } from '../../../src/store/enterprise/memory.js';
import type { EnterpriseStore } from '../../../src/store/enterprise/ports.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { sequentialSids } from '../../../src/store/sid.js';
import { ACCOUNT_A, ACCOUNT_B, account } from '../../store/fixtures.js';
import { AUTH_A, AUTH_B, BASE } from '../harness.js';

export { ACCOUNT_A, ACCOUNT_B, AUTH_A, AUTH_B, BASE };

/** 2024-03-05T12:00:00Z, the harness's first instant. */
export const T0 = Date.UTC(2024, 2, 5, 12, 0, 0);

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field
  body: any;
}

/** An app over memory stores with accounts A and B, sequential sids and a settable clock. */
export async function setupEnterprise(options: { store?: EnterpriseStore; maxAudioBytes?: number } = {}) {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const enterpriseStore = options.store ?? createMemoryEnterpriseStore();
  const clock = { now: T0 };
  const errors: unknown[] = [];
  const app = createApp({
    store,
    baseUrl: BASE,
    now: () => clock.now,
    onError: (e) => errors.push(e),
    maxBodyBytes: 4096,
    enterprise: {
      store: enterpriseStore,
      sids: sequentialSids(),
      scryptCost: 1024,
      maxAudioBytes: options.maxAudioBytes ?? 64 * 1024,
    },
  });
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    opts: { auth?: string | null; actingUser?: string; raw?: RequestInit['body']; contentType?: string } = {},
  ): Promise<Answer> => {
    const headers = new Headers();
    const auth = opts.auth === undefined ? AUTH_A : opts.auth;
    if (auth) headers.set('Authorization', auth);
    if (opts.actingUser) headers.set('X-Acting-User', opts.actingUser);
    let payload: RequestInit['body'] = opts.raw;
    if (body !== undefined) {
      headers.set('Content-Type', 'application/json');
      payload = JSON.stringify(body);
    } else if (opts.contentType) headers.set('Content-Type', opts.contentType);
    const res = await app.fetch(new Request(BASE + path, { method, headers, body: payload }));
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  /** Creates an enterprise of account A (or the given auth) and returns its sid. */
  const enterprise = async (fields: Record<string, unknown> = {}, auth?: string) => {
    const r = await send(
      'POST',
      '/enterprises',
      { name: 'Acme', accountEmail: 'admin@acme.test', ...fields },
      { auth },
    );
    if (r.status !== 200) throw new Error(`enterprise: ${JSON.stringify(r.body)}`);
    return r.body.data.sid as string;
  };
  return { app, store, enterpriseStore, clock, errors, send, enterprise };
}
