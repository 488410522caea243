import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase } from '../support/cluster.js';
import { documentServer, startNodes } from '../support/cluster-nodes.js';
import { PG_URL, REDIS_PREFIX, REDIS_URL } from '../support/services.js';

const ACCOUNT = `AC${'e'.repeat(32)}`;
const TOKEN = 'conference-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const HOST_NUMBER = '+15550300';
const GUEST_NUMBER = '+15550400';
const HOST = '+16660003';
const GUEST = '+17770003';
const ROOT = `/platform/2012-04-24/Accounts/${ACCOUNT}`;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** The host's and guests' application: RCML by path. */
const DOCUMENTS: Record<string, string> = {
  '/host': '<Dial action="/after"><Conference endConferenceOnExit="true">board</Conference></Dial>',
  '/guest': '<Dial action="/after"><Conference startConferenceOnEnter="false">board</Conference></Dial>',
  '/after': '<Hangup/>',
};

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
type Json = Record<string, any>;
const call = async (url: string, init: RequestInit = {}) =>
  (await fetch(url, {
    ...init,
    headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded', ...init.headers },
  }).then((r) => r.json())) as Json;

describe.skipIf(!PG_URL || !REDIS_URL)('rcml serve nodes sharing a conference', () => {
  it('run one room for callers of both nodes, mute across them and end it for both', async () => {
    const database = await clusterDatabase(cleanups);
    const app = await documentServer(DOCUMENTS, cleanups);
    const env = {
      RCML_DATABASE_URL: database,
      RCML_REDIS_URL: REDIS_URL,
      RCML_REDIS_PREFIX: `${REDIS_PREFIX}conf_${randomBytes(3).toString('hex')}`,
    };
    const common = ['--clock', 'virtual', '--account-sid', ACCOUNT, '--auth-token', TOKEN];
    const [one, two] = await startNodes(cleanups, env, common, [
      { id: 'n1', args: ['--number', `${HOST_NUMBER}=${app.url}/host`] },
      { id: 'n2', args: ['--number', `${GUEST_NUMBER}=${app.url}/guest`] },
    ]);
    const sim = (node: { url: string }, path: string, body: string, type?: string) =>
      call(`${node.url}/sim/${path}`, {
        method: 'POST',
        body,
        headers: type ? { 'Content-Type': type } : {},
      });
    const advance = async () => {
      await sim(one, 'Advance', 'Seconds=1');
      await sim(two, 'Advance', 'Seconds=1');
    };
    const dial = async (node: { url: string }, from: string, to: string) =>
      (await sim(node, 'Calls', `From=${encodeURIComponent(from)}&To=${encodeURIComponent(to)}`))
        .sid as string;

    await sim(one, 'Parties', JSON.stringify({ address: HOST, hangupAfter: 10 }), 'application/json');
    const host = await dial(one, HOST, HOST_NUMBER);
    await advance();
    const guest = await dial(two, GUEST, GUEST_NUMBER);
    for (let i = 0; i < 3; i++) await advance();

    // Both nodes list the one room, with both callers, from the store.
    const lists = [
      await call(`${one.url}${ROOT}/Conferences.json`),
      await call(`${two.url}${ROOT}/Conferences.json`),
    ];
    expect(lists[1].conferences).toEqual(lists[0].conferences);
    expect(lists[0].conferences).toMatchObject([{ friendly_name: 'board', status: 'in-progress' }]);
    const room = lists[0].conferences[0].sid as string;
    const people = `${ROOT}/Conferences/${room}/Participants`;
    expect(((await call(`${two.url}${people}.json`)).participants as Json[]).map((p) => p.call_sid)).toEqual([
      host,
      guest,
    ]);

    // Mute the guest through node 1: forwarded to node 2, which runs the call and tells node 1.
    const muted = await call(`${one.url}${people}/${guest}.json`, { method: 'POST', body: 'Mute=true' });
    expect(muted.sid).toBe(guest);
    await advance();
    expect(await call(`${one.url}${people}/${guest}.json`)).toMatchObject({ call_sid: guest, muted: true });

    // The host hangs up at 10 s: the room ends, the guest leaves it on node 2.
    for (let i = 0; i < 15; i++) {
      await advance();
      const r = await call(`${two.url}${ROOT}/Conferences/${room}.json`);
      const g = await call(`${two.url}${ROOT}/Calls/${guest}.json`);
      if (r.status === 'completed' && g.status === 'completed') break;
    }
    expect(await call(`${two.url}${ROOT}/Conferences/${room}.json`)).toMatchObject({ status: 'completed' });
    expect((await call(`${one.url}${people}.json`)).participants).toEqual([]);
    expect(await call(`${one.url}${ROOT}/Calls/${guest}.json`)).toMatchObject({ status: 'completed' });
    expect(app.requests.filter((r) => r.path === '/after')).toHaveLength(2);
  }, 120_000);
});
