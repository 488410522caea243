import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account } from '../store/fixtures.js';
import { AUTH_A } from './harness.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/** An engine app on the virtual clock whose calls record 2 s and hang up. */
async function recordingApp(baseUrl?: string) {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const built = await createEngineApp({ store, baseUrl, clock: 'virtual', seed: 3 });
  opened.push(built);
  built.engine.registerHandler('http://app.test/rec', () => ({
    status: 200,
    contentType: 'text/xml',
    body: '<Response><Record maxLength="2"/></Response>',
  }));
  return built;
}

/** Places a call, runs it to its end, and answers its recording's `file_uri`. */
async function recordedFileUri(
  fetch: (path: string, init?: RequestInit) => Response | Promise<Response>,
  prefix: string,
) {
  const root = `${prefix}/platform/2012-04-24`;
  const form = { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: AUTH_A };
  const placed = await fetch(`${root}/Accounts/${ACCOUNT_A}/Calls.json`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({ From: '+15551111', To: '+15552222', Url: 'http://app.test/rec' }).toString(),
  });
  expect(placed.status).toBe(200);
  const advanced = await fetch(`${prefix}/sim/Advance`, {
    method: 'POST',
    headers: form,
    body: 'Seconds=10',
  });
  expect(advanced.status).toBe(200);
  const list = await fetch(`${root}/Accounts/${ACCOUNT_A}/Recordings.json`, {
    headers: { Authorization: AUTH_A },
  });
  const [recording] = ((await list.json()) as { recordings: Array<{ file_uri: string }> }).recordings;
  return recording.file_uri;
}

describe('createEngineApp without an absolute base URL', () => {
  it('takes the origin of the first request when none is set', async () => {
    const built = await recordingApp();
    expect(built.baseUrl).toBeUndefined();
    const fetch = (path: string, init?: RequestInit) =>
      built.app.fetch(new Request(`http://late.test:8123${path}`, init));
    const fileUri = await recordedFileUri(fetch, '');
    expect(built.baseUrl).toBe('http://late.test:8123');
    expect(fileUri).toMatch(
      /^http:\/\/late\.test:8123\/platform\/2012-04-24\/Accounts\/AC[0-9a-f]{32}\/Recordings\/RE[0-9a-f]{32}\.wav$/,
    );
    expect(() => built.setBaseUrl('http://other.test')).toThrow(/already http:\/\/late\.test:8123/);
  });

  it('serves a path-only base on port 0 once setBaseUrl names the port listen() picked', async () => {
    const built = await recordingApp('/rcml');
    const server = serve({ fetch: built.app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(() => built.setBaseUrl(`${origin}/elsewhere`)).toThrow(/routed path "\/rcml"/);
    expect(() => built.setBaseUrl('/rcml')).toThrow(/not an absolute URL/);
    built.setBaseUrl(`${origin}/rcml/`);
    expect(built.baseUrl).toBe(`${origin}/rcml`);
    const fetch = (path: string, init?: RequestInit) => globalThis.fetch(`${origin}${path}`, init);
    const fileUri = await recordedFileUri(fetch, '/rcml');
    expect(fileUri.startsWith(`${origin}/rcml/platform/2012-04-24/Accounts/`)).toBe(true);
    const wav = await fetch(fileUri.slice(origin.length));
    expect(wav.status).toBe(200);
    // Routes live under the path only.
    expect(
      (
        await fetch(`/platform/2012-04-24/Accounts/${ACCOUNT_A}/Calls.json`, {
          headers: { Authorization: AUTH_A },
        })
      ).status,
    ).toBe(404);
  });

  it('refuses setBaseUrl when an absolute base was given, and a base that is neither URL nor path', async () => {
    const built = await recordingApp('http://given.test/x');
    expect(built.baseUrl).toBe('http://given.test/x');
    expect(() => built.setBaseUrl('http://given.test/x')).toThrow(/already/);
    await expect(recordingApp('rcml')).rejects.toThrow(/neither an absolute URL nor a path/);
  });
});
