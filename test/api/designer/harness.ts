import { createApp } from '../../../src/api/app.js';
import type { DesignerServiceOptions } from '../../../src/api/designer/context.js';
import { createDesignerService } from '../../../src/api/designer/service.js';
import { createEngineApp } from '../../../src/api/engine-server.js';
import type { HttpFetcherOptions } from '../../../src/engine/fetcher.js';
import type { EngineEvent } from '../../../src/engine/types.js';
import { createMemoryDesignerStore } from '../../../src/store/designer/memory.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { sequentialSids } from '../../../src/store/sid.js';
import { ACCOUNT_A, ACCOUNT_B, account } from '../../store/fixtures.js';
import { AUTH_A, AUTH_B } from '../harness.js';

export { ACCOUNT_A, ACCOUNT_B, AUTH_A, AUTH_B };
export const BASE = 'http://vd.test';
export const SERVICE = '/visual-designer/services';

type Init = RequestInit & { auth?: string | null };

function clientOf(fetch: (req: Request) => Response | Promise<Response>) {
  const request = (path: string, init: Init = {}) => {
    const headers = new Headers(init.headers);
    const auth = init.auth === undefined ? AUTH_A : init.auth;
    if (auth) headers.set('Authorization', auth);
    const url = path.startsWith('/platform') || path.startsWith('/sim') ? BASE + path : BASE + SERVICE + path;
    return fetch(new Request(url, { ...init, headers }));
  };
  const json = async (path: string, init?: Init) => {
    const res = await request(path, init);
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: test reads any JSON shape
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, body, headers: res.headers };
  };
  const send = (body: unknown, method = 'POST', contentType = 'application/json'): RequestInit => ({
    method,
    headers: { 'Content-Type': contentType },
    body:
      typeof body === 'string' || body instanceof Uint8Array
        ? (body as RequestInit['body'])
        : JSON.stringify(body),
  });
  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  /** Creates an application and returns its sid. */
  const create = async (query: Record<string, string>, auth?: string) => {
    const res = await json(`/projects?${new URLSearchParams(query)}`, { method: 'POST', auth });
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.sid as string;
  };
  return { request, json, send, form, create };
}

/** The REST app with a designer service over memory stores (accounts A and B), no engine. */
export function setup(options: Partial<DesignerServiceOptions> = {}) {
  const store = createMemoryStore();
  // The memory store writes at once: no need to wait.
  void store.accounts.put(account(ACCOUNT_A));
  void store.accounts.put(account(ACCOUNT_B));
  const designerStore = createMemoryDesignerStore();
  const errors: unknown[] = [];
  const sids = sequentialSids();
  const designer = createDesignerService({
    store,
    designer: designerStore,
    now: () => Date.UTC(2024, 5, 1),
    newSid: () => sids('AP'),
    ...options,
  });
  const app = createApp({ store, designer, baseUrl: BASE, onError: (e) => errors.push(e) });
  return { app, store, designerStore, errors, ...clientOf((req) => app.fetch(req)) };
}

/** The REST app over its own engine on a virtual clock (accounts A and B), with `http` options. */
export async function setupWithEngine(http: HttpFetcherOptions = {}) {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const errors: unknown[] = [];
  const events: EngineEvent[] = [];
  const built = await createEngineApp({
    engine: { onEvent: (e) => events.push(e), http },
    store,
    baseUrl: BASE,
    clock: 'virtual',
    seed: 7,
    epoch: Date.UTC(2024, 5, 1),
    accountSid: ACCOUNT_A,
    onError: (e) => errors.push(e),
  });
  const client = clientOf((req) => built.app.fetch(req));
  const advance = (seconds: number) => client.json('/sim/Advance', client.form({ Seconds: String(seconds) }));
  /** Verbs the engine ran for a call, `Parent/Verb` for nested ones. */
  const verbsOf = (callSid: string) =>
    events.flatMap((e) =>
      e.type === 'verb' && e.callSid === callSid ? [e.parent ? `${e.parent}/${e.verb}` : e.verb] : [],
    );
  /** Routes a number to an application and places a call to it; resolves with the call sid. */
  const call = async (appSid: string, number: string, from: string) => {
    await client.json('/sim/Numbers', client.form({ Number: number, ApplicationSid: appSid }));
    const placed = await client.json('/sim/Calls', client.form({ From: from, To: number }));
    if (placed.status !== 200) throw new Error(`call failed: ${JSON.stringify(placed.body)}`);
    return placed.body.sid as string;
  };
  return { ...built, store, errors, events, verbsOf, call, advance, ...client };
}

/**
 * A copy of a project structure whose first step is a control step matching with a lookahead,
 * a pattern the bounded regex engine cannot run (saving it is refused at
 * `nodes[0].steps[0].conditions[0].matcher.regex`).
 */
// biome-ignore lint/suspicious/noExplicitAny: a project structure as the API answers it
export function withLookahead(structure: any): any {
  const changed = structuredClone(structure);
  changed.nodes[0].steps.unshift({
    kind: 'control',
    name: 'stepX',
    conditions: [{ name: 'C1', operator: 'matches', matcher: { text: '$core_From', regex: '(?=\\+1)\\d+' } }],
    conditionExpression: 'C1',
    actions: [],
  });
  return changed;
}
