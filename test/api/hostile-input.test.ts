/**
 * Input one account controls must never stall the server for the others: while a hostile
 * document or pattern is processed, `GET /health` answers within 2 s, where the code these
 * tests were written against blocked the event loop for 8 s or more. The margin is wide on
 * purpose: no loaded machine turns a linear scan into 2 s, nor a quadratic one into less.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type EngineServer, startEngineServer } from '../../src/api/engine-server.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../store/fixtures.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const AUTH = `Basic ${Buffer.from(`${ACCOUNT_A}:${tokenOf(ACCOUNT_A)}`).toString('base64')}`;

async function startPlatform(): Promise<EngineServer> {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const server = await startEngineServer({ store, clock: 'real' });
  cleanups.push(() => server.close());
  return server;
}

/** Milliseconds `GET /health` takes to answer, asked now. */
async function healthTime(server: EngineServer): Promise<number> {
  const start = Date.now();
  const res = await fetch(`${server.url}/health`);
  expect(res.status).toBe(200);
  return Date.now() - start;
}

/** Places a call to `url` from `from`. */
async function placeCall(server: EngineServer, url: string, from = '+15550100'): Promise<void> {
  const res = await fetch(`${server.url}/2012-04-24/Accounts/${ACCOUNT_A}/Calls.json`, {
    method: 'POST',
    headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ From: from, To: '+15550123', Url: url }).toString(),
  });
  expect(res.status).toBe(200);
}

/**
 * Places a call whose document `body` is served at `url` (in process). `GET /health` is asked
 * as the document is handed over, so it waits for whatever the document makes the server do;
 * resolves with the milliseconds it took.
 */
async function healthWhileServing(server: EngineServer, url: string, body: string): Promise<number> {
  const health = new Promise<number>((resolve, reject) => {
    let asked = false;
    server.engine.registerHandler(url, () => {
      if (!asked) {
        asked = true;
        healthTime(server).then(resolve, reject);
      }
      return { status: 200, contentType: 'text/xml', body };
    });
  });
  await placeCall(server, url);
  return health;
}

describe('a hostile RCML document', () => {
  it('of 60,000 attributes on one verb, redirecting to itself, leaves /health answering within 2 s', async () => {
    const server = await startPlatform();
    const url = 'http://hostile.test/attributes';
    const attributes = Array.from({ length: 60_000 }, (_, i) => `a${i}="x"`).join(' ');
    const document = `<Response><Redirect ${attributes}>${url}</Redirect></Response>`;
    expect(await healthWhileServing(server, url, document)).toBeLessThan(2000);
  });
});

/** A designer application of account A whose start module is `steps`; answers its controller URL. */
async function designerApp(server: EngineServer, steps: unknown[]): Promise<string> {
  const service = `${server.url}/visual-designer/services`;
  const json = { Authorization: AUTH, 'Content-Type': 'application/json' };
  const created = await fetch(`${service}/projects?name=hostile&kind=voice`, {
    method: 'POST',
    headers: json,
  });
  expect(created.status).toBe(200);
  const { sid } = (await created.json()) as { sid: string };
  const project = {
    header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
    nodes: [
      { name: 'start', steps },
      { name: 'yes', steps: [{ kind: 'say', name: 'step9', phrase: 'yes' }] },
    ],
  };
  const saved = await fetch(`${service}/projects/${sid}`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify(project),
  });
  expect(saved.status).toBe(200);
  expect((await fetch(`${service}/projects/${sid}/build`, { method: 'POST', headers: json })).status).toBe(
    200,
  );
  return `${server.baseUrl}/visual-designer/services/apps/${sid}/controller`;
}

describe('a hostile designer pattern', () => {
  it('(a+)+b matched against 29 characters of the caller leaves /health answering within 2 s', async () => {
    const server = await startPlatform();
    const controller = await designerApp(server, [
      {
        kind: 'control',
        name: 'step1',
        conditions: [{ name: 'C1', operator: 'matches', matcher: { text: '$core_From', regex: '(a+)+b' } }],
        conditionExpression: 'C1',
        actions: [{ name: 'A1', continueTo: { target: 'yes' } }],
      },
      { kind: 'say', name: 'step2', phrase: 'no' },
    ]);
    // The controller is served in process: ask /health as its request arrives.
    const health = new Promise<number>((resolve, reject) => {
      const prefix = `${server.baseUrl}/visual-designer/services/apps/`;
      server.engine.registerHandler(prefix, (req) => {
        healthTime(server).then(resolve, reject);
        return server.designer.rcmlHandler(req);
      });
    });
    await placeCall(server, controller, 'a'.repeat(29));
    expect(await health).toBeLessThan(2000);
  });
});
