import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase, eventually } from '../support/cluster.js';
import { startNodes } from '../support/cluster-nodes.js';
import { PG_URL, REDIS_PREFIX, REDIS_URL } from '../support/services.js';

const ACCOUNT = `AC${'e'.repeat(32)}`;
const TOKEN = 'console-cluster-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const post = async (url: string, body: string) =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    })
  ).json()) as { sid: string };

/** Opens the console's event stream as a logged-in page would; collects its events. */
async function consoleStream(base: string): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const login = await fetch(`${base}/console/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ accountSid: ACCOUNT, authToken: TOKEN }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('Set-Cookie') ?? '').split(';')[0];
  const controller = new AbortController();
  cleanups.push(async () => controller.abort());
  const res = await fetch(`${base}/console/api/events`, {
    headers: { Cookie: cookie },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
      }
    }
  })();
  return events;
}

describe.skipIf(!PG_URL || !REDIS_URL)('the web console on a cluster', () => {
  it("a console served by node 2 streams node 1's call from its creation to its end", async () => {
    const database = await clusterDatabase(cleanups);
    const prefix = `${REDIS_PREFIX}console_${randomBytes(3).toString('hex')}`;
    const env = { RCML_DATABASE_URL: database, RCML_REDIS_URL: REDIS_URL, RCML_REDIS_PREFIX: prefix };
    const project = join(import.meta.dirname, '../../fixtures/designer/say.json');
    const common = ['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--clock', 'virtual'];
    const [one, two] = await startNodes(cleanups, env, common, [
      { id: 'n1', args: ['--project', project, '--number', '+15550100'] },
      { id: 'n2' },
    ]);
    const events = await consoleStream(two.url);
    const callsSeen = () =>
      new Set(events.filter((e) => e.event === 'call').map((e) => (e.data.call as { sid: string }).sid));

    // Node 1 learns of the watch through Redis: until then its calls are not sent.
    await eventually('node 1 sending to the console of node 2', async () => {
      const probe = await post(`${one.url}/sim/Calls`, 'From=%2B15551111&To=%2B15550199');
      return callsSeen().has(probe.sid) ? true : undefined;
    });
    const call = await post(`${one.url}/sim/Calls`, 'From=%2B15551111&To=%2B15550100');
    await post(`${one.url}/sim/Advance`, 'Seconds=30');
    const statuses = await eventually('the call ended in node 2 console', async () => {
      const seen = events
        .filter((e) => e.event === 'call' && (e.data.call as { sid: string }).sid === call.sid)
        .map((e) => (e.data.call as { status: string }).status);
      return seen.some((s) => ['completed', 'failed', 'busy', 'no-answer'].includes(s)) ? seen : undefined;
    });
    expect(statuses).toContain('in-progress');
    expect(statuses[statuses.length - 1]).toBe('completed');
    // Its verbs came too: the timeline node 2 keeps is the designer's Say.
    expect(
      events.some(
        (e) =>
          e.event === 'event' &&
          (e.data.event as { callSid?: string; type: string }).type === 'verb' &&
          (e.data.event as { callSid?: string }).callSid === call.sid,
      ),
    ).toBe(true);
    // The store gets the record as node 1 writes it (behind the live view): it ends the same.
    await eventually('the stored call completed', async () => {
      const res = await fetch(`${two.url}/platform/2012-04-24/Accounts/${ACCOUNT}/Calls/${call.sid}.json`, {
        headers: { Authorization: AUTH },
      });
      const stored = (await res.json()) as { status: string };
      return stored.status === statuses[statuses.length - 1] ? true : undefined;
    });
  });
});
