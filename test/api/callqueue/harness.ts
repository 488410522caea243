import { createEngineApp } from '../../../src/api/engine-server.js';
import { webhookSignature } from '../../../src/engine/signature.js';
import type { RcmlHandler } from '../../../src/engine/types.js';
import type { CallQueueStore } from '../../../src/store/callqueue/ports.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account, signingKeyOf } from '../../store/fixtures.js';
import { AUTH_A, BASE } from '../harness.js';

export const xml = (body: string): ReturnType<RcmlHandler> => ({
  status: 200,
  contentType: 'text/xml',
  body: `<Response>${body}</Response>`,
});

/** JSON request options for `cq.json`. */
export interface JsonInit {
  method?: string;
  body?: unknown;
  /** Authorization header; null sends none. Default account A. */
  auth?: string | null;
  /** A raw body instead of JSON. */
  raw?: string;
}

/**
 * The REST app over a real engine on the virtual clock with accounts A and B. The engine's
 * requests to `{BASE}/callqueue/callback` reach the app itself (in process), so status
 * callbacks land on the real endpoint.
 */
export async function callQueueServer(options: { callQueueStore?: CallQueueStore; seed?: number } = {}) {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const errors: unknown[] = [];
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock: 'virtual',
    seed: options.seed ?? 7,
    epoch: Date.UTC(2024, 2, 5, 12),
    onError: (e) => errors.push(e),
    callQueueStore: options.callQueueStore,
  });
  const { app, engine } = built;
  const callbacks: Array<{ status: number; params: Record<string, string> }> = [];
  engine.registerHandler(`${BASE}/callqueue/callback`, async (req) => {
    const res = await app.fetch(
      new Request(req.url, {
        method: req.method,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          // Signed as the engine signs it over HTTP (in-process requests are not).
          'X-Twilio-Signature': webhookSignature(signingKeyOf(req.params.AccountSid), req.url, req.params),
        },
        body: new URLSearchParams(req.params).toString(),
      }),
    );
    callbacks.push({ status: res.status, params: req.params });
    return { status: res.status, contentType: 'text/plain', body: await res.text() };
  });

  const json = async (path: string, init: JsonInit = {}) => {
    const headers: Record<string, string> = {};
    const auth = init.auth === undefined ? AUTH_A : init.auth;
    if (auth) headers.Authorization = auth;
    let body: string | undefined;
    if (init.raw !== undefined || init.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = init.raw ?? JSON.stringify(init.body);
    }
    const res = await app.fetch(
      new Request(BASE + path, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body }),
    );
    const text = await res.text();
    return {
      status: res.status,
      // biome-ignore lint/suspicious/noExplicitAny: test reads arbitrary JSON
      body: (text ? JSON.parse(text) : undefined) as any,
    };
  };

  const form = async (path: string, fields: Record<string, string>, auth: string | null = AUTH_A) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
    if (auth) headers.Authorization = auth;
    const res = await app.fetch(
      new Request(BASE + path, { method: 'POST', headers, body: new URLSearchParams(fields).toString() }),
    );
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: test reads arbitrary JSON
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
  };

  const serve = (url: string, handler: RcmlHandler) => engine.registerHandler(url, handler);

  return { app, engine, store, errors, callbacks, json, form, serve, close: () => built.close() };
}
