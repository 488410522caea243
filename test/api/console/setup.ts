/** A platform server with its console, on the virtual clock, and the requests the console tests make. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionOptions } from '../../../src/api/console/sessions.js';
import { type EngineServer, startEngineServer } from '../../../src/api/engine-server.js';
import { ensureAccount } from '../../../src/api/server.js';
import { buildConsole } from '../../../src/console/build.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import type { Store } from '../../../src/store/ports.js';

export const ACCOUNT = `AC${'c0'.repeat(16)}`;
export const TOKEN = 'console-test-token';
export const OTHER = `AC${'d1'.repeat(16)}`;
export const OTHER_TOKEN = 'other-test-token';

const xml = (body: string) => ({
  status: 200,
  contentType: 'text/xml',
  body: `<Response>${body}</Response>`,
});

let built: Promise<string> | undefined;

/** The front end, built once per test file into a directory of its own. */
export function consoleAssets(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-console-'));
    await buildConsole(dir);
    return dir;
  })();
  return built;
}

export interface ConsoleServer {
  server: EngineServer;
  store: Store;
  url: string;
  /** A request with the account's Basic credentials. */
  api(path: string, fields?: Record<string, string>, auth?: string): Promise<Response>;
  /** Moves the virtual clock. */
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

export const basicOf = (sid: string, token: string) =>
  `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;

/**
 * Numbers: +15550100 says, records and hangs up; +15550200 waits in a long pause; +15550300
 * dials the `support` queue (a customer); +15550400 enqueues (an agent); +15550500 joins a
 * conference; +15550600 answers a document longer than a response event carries.
 */
export async function startConsoleServer(
  options: { sessions?: SessionOptions } = {},
): Promise<ConsoleServer> {
  const store = createMemoryStore();
  await ensureAccount(store, { sid: ACCOUNT, authToken: TOKEN });
  await ensureAccount(store, { sid: OTHER, authToken: OTHER_TOKEN });
  const server = await startEngineServer({
    store,
    clock: 'virtual',
    seed: 5,
    epoch: Date.UTC(2026, 0, 5, 9),
    accountSid: ACCOUNT,
    console: { assetsDir: await consoleAssets(), sessions: options.sessions },
    numbers: {
      '+15550100': { voiceUrl: 'http://app.test/record' },
      '+15550200': { voiceUrl: 'http://app.test/hold' },
      '+15550300': { voiceUrl: 'http://app.test/customer' },
      '+15550400': { voiceUrl: 'http://app.test/agent' },
      '+15550500': { voiceUrl: 'http://app.test/room' },
      '+15550600': { voiceUrl: 'http://app.test/long' },
    },
  });
  const { engine } = server;
  engine.registerHandler('http://app.test/record', () =>
    xml('<Say>Leave a message after the tone.</Say><Record maxLength="3" playBeep="true"/><Hangup/>'),
  );
  engine.registerHandler('http://app.test/hold', () => xml('<Say>Please hold.</Say><Pause length="600"/>'));
  engine.registerHandler('http://app.test/other', () => xml('<Say>Moved here.</Say><Pause length="600"/>'));
  engine.registerHandler('http://app.test/customer', () =>
    xml('<Dial timeout="600"><Queue>support</Queue></Dial>'),
  );
  engine.registerHandler('http://app.test/agent', () => xml('<Enqueue>support</Enqueue>'));
  engine.registerHandler('http://app.test/room', () =>
    xml('<Dial><Conference startConferenceOnEnter="true">standup</Conference></Dial>'),
  );
  engine.registerHandler('http://app.test/long', () => xml('<Pause length="600"/>'.repeat(300)));
  const api = (path: string, fields?: Record<string, string>, auth = basicOf(ACCOUNT, TOKEN)) =>
    fetch(`${server.url}${path}`, {
      method: fields ? 'POST' : 'GET',
      headers: {
        Authorization: auth,
        ...(fields ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: fields ? new URLSearchParams(fields).toString() : undefined,
    });
  return {
    server,
    store,
    url: server.url,
    api,
    advance: async (seconds) => {
      const res = await api('/sim/Advance', { Seconds: String(seconds) });
      if (!res.ok) throw new Error(`advance: ${res.status} ${await res.text()}`);
    },
    close: () => server.close(),
  };
}
