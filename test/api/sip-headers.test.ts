import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { controllerHandler } from '../../src/api/designer/controller.js';
import { createEngineApp } from '../../src/api/engine-server.js';
import { formPairs, voiceParams } from '../../src/engine/params.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, call } from '../store/fixtures.js';
import { AUTH_A, BASE } from './harness.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A local app that answers a short document and keeps every request body it was sent, raw. */
async function recordingApp() {
  const bodies: Array<{ path: string; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.end('<Response><Say>Hi</Say></Response>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

const DIVERSIONS = ['<sip:+15550001@a.test>;reason=user-busy', '<sip:+15550002@b.test>;reason=no-answer'];
const HISTORY = ['<sip:+15550100@c.test>;index=1', '<sip:+15550101@c.test>;index=1.1'];

describe('SIP headers with repeated values', () => {
  it('repeat, top-most first, in the voice request and the status callbacks of an inbound call', async () => {
    const app = await recordingApp();
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    const built = await createEngineApp({
      store,
      baseUrl: BASE,
      clock: 'virtual',
      seed: 2,
      numbers: {
        '+15550100': {
          voiceUrl: `${app.url}/voice`,
          statusCallback: `${app.url}/status`,
          statusCallbackEvent: ['answered', 'completed'],
        },
      },
    });
    cleanups.push(() => built.close());
    const form = new URLSearchParams([
      ['From', '+15551111'],
      ['To', '+15550100'],
      ['SipHeader_Diversion', DIVERSIONS[0]],
      ['SipHeader_Diversion', DIVERSIONS[1]],
      ['SipHeader_History-Info', HISTORY[0]],
      ['SipHeader_History-Info', HISTORY[1]],
      ['SipHeader_X-Campaign', 'spring'],
    ]);
    const res = await built.app.fetch(
      new Request(`${BASE}/sim/Calls`, {
        method: 'POST',
        headers: { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      }),
    );
    expect(res.status).toBe(200);
    await built.engine.runUntilIdle();

    const voice = app.bodies.filter((b) => b.path === '/voice');
    const status = app.bodies.filter((b) => b.path === '/status');
    expect(voice).toHaveLength(1);
    expect(status.length).toBeGreaterThanOrEqual(2);
    for (const { body } of [...voice, ...status]) {
      const fields = new URLSearchParams(body);
      expect(fields.getAll('SipHeader_Diversion')).toEqual(DIVERSIONS);
      expect(fields.getAll('SipHeader_History-Info')).toEqual(HISTORY);
      expect(fields.getAll('SipHeader_X-Campaign')).toEqual(['spring']);
    }
  });

  it('formPairs repeats only a SipHeader_ parameter that holds several values', () => {
    const params = voiceParams(call(1), { Diversion: DIVERSIONS, 'X-One': 'a' });
    params.Note = 'two\nlines';
    const pairs = formPairs(params);
    expect(pairs.filter(([k]) => k === 'SipHeader_Diversion').map(([, v]) => v)).toEqual(DIVERSIONS);
    expect(pairs.filter(([k]) => k === 'SipHeader_X-One')).toEqual([['SipHeader_X-One', 'a']]);
    expect(pairs.filter(([k]) => k === 'Note')).toEqual([['Note', 'two\nlines']]);
  });
});

describe('the Visual Designer controller', () => {
  it('joins a repeated SIP header with commas, in process as over HTTP', async () => {
    const seen: Array<Record<string, string>> = [];
    const runtime = {
      render: async (req: { params: Record<string, string> }) => {
        seen.push(req.params);
        return { ok: true as const, xml: '<Response/>' };
      },
    } as unknown as Parameters<typeof controllerHandler>[0];
    const handler = controllerHandler(runtime);
    const params = voiceParams(call(1), { Diversion: DIVERSIONS, 'X-One': 'a' });
    await handler({
      url: `${BASE}/visual-designer/services/apps/AP${'1'.repeat(32)}/controller`,
      method: 'POST',
      params,
    });
    expect(seen[0].SipHeader_Diversion).toBe(DIVERSIONS.join(','));
    expect(seen[0]['SipHeader_X-One']).toBe('a');
  });
});
