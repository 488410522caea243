import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase } from '../support/cluster.js';
import { documentServer, startNodes } from '../support/cluster-nodes.js';
import { PG_URL, REDIS_PREFIX, REDIS_URL } from '../support/services.js';

const ACCOUNT = `AC${'d'.repeat(32)}`;
const TOKEN = 'bridge-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const CUSTOMER_NUMBER = '+15550100';
const AGENT_NUMBER = '+15550200';
const AGENT = '+16660001';
const CUSTOMER = '+17770001';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** The customers' and agents' application: RCML by path. */
const DOCUMENTS: Record<string, string> = {
  '/customer': '<Enqueue joinUrl="/cust-join" action="/enq-after">support</Enqueue>',
  '/cust-join': '<Say>an agent is coming</Say>',
  '/enq-after': '<Hangup/>',
  '/agent': '<Dial action="/dialed" timeout="600"><Queue joinUrl="/agent-join">support</Queue></Dial>',
  '/agent-join': '<Say>a customer</Say>',
  '/dialed': '<Hangup/>',
};

const post = async (url: string, body: string, type = 'application/x-www-form-urlencoded') =>
  (await fetch(url, { method: 'POST', headers: { Authorization: AUTH, 'Content-Type': type }, body }).then(
    (r) => r.json(),
  )) as Record<string, string>;
const get = async (url: string) =>
  (await fetch(url, { headers: { Authorization: AUTH } }).then((r) => r.json())) as Record<string, string>;

describe.skipIf(!PG_URL || !REDIS_URL)('rcml serve nodes bridging a queue match', () => {
  it('connect a customer on node 1 with an agent on node 2, and end both legs together', async () => {
    const database = await clusterDatabase(cleanups);
    const app = await documentServer(DOCUMENTS, cleanups);
    const env = {
      RCML_DATABASE_URL: database,
      RCML_REDIS_URL: REDIS_URL,
      RCML_REDIS_PREFIX: `${REDIS_PREFIX}bridge_${randomBytes(3).toString('hex')}`,
    };
    const common = ['--clock', 'virtual', '--account-sid', ACCOUNT, '--auth-token', TOKEN];
    const [one, two] = await startNodes(cleanups, env, common, [
      { id: 'n1', args: ['--number', `${CUSTOMER_NUMBER}=${app.url}/customer`] },
      { id: 'n2', args: ['--number', `${AGENT_NUMBER}=${app.url}/agent`] },
    ]);
    const sim = (node: { url: string }, path: string, body: string, type?: string) =>
      post(`${node.url}/sim/${path}`, body, type);
    const record = (sid: string) =>
      get(`${one.url}/platform/2012-04-24/Accounts/${ACCOUNT}/Calls/${sid}.json`);

    await sim(one, 'Parties', JSON.stringify({ address: CUSTOMER, hangupAfter: 20 }), 'application/json');
    const agent = (
      await sim(two, 'Calls', `From=${encodeURIComponent(AGENT)}&To=${encodeURIComponent(AGENT_NUMBER)}`)
    ).sid as string;
    // Each node's virtual clock starts at the second it started: keep them in step.
    await sim(one, 'Advance', 'Seconds=5');
    await sim(two, 'Advance', 'Seconds=5');
    const customer = (
      await sim(
        one,
        'Calls',
        `From=${encodeURIComponent(CUSTOMER)}&To=${encodeURIComponent(CUSTOMER_NUMBER)}`,
      )
    ).sid as string;
    // Each node's clock moves only when asked: advance both, a second at a time, until both
    // calls have ended (the customer hangs up 20 s after answering, on node 1's clock).
    for (let second = 0; second < 60; second++) {
      await sim(one, 'Advance', 'Seconds=1');
      await sim(two, 'Advance', 'Seconds=1');
      const [c, a] = [await record(customer), await record(agent)];
      if (c.status === 'completed' && a.status === 'completed') break;
    }
    // An advance returns once the callbacks in flight (the actions) are answered.
    await sim(one, 'Advance', 'Seconds=1');
    await sim(two, 'Advance', 'Seconds=1');
    const paths = (path: string) => app.requests.filter((r) => r.path === path).map((r) => r.params);
    expect(paths('/cust-join')).toEqual([expect.objectContaining({ CallSid: customer, QueuePosition: '1' })]);
    expect(paths('/agent-join')).toEqual([expect.objectContaining({ CallSid: agent, QueuePosition: '1' })]);
    // Waited 5 s on node 2's clock, measured by node 1's (the two started within a second).
    expect(Math.abs(Number(paths('/agent-join')[0]?.QueueTime) - 5)).toBeLessThanOrEqual(1);
    expect(paths('/dialed')).toEqual([
      expect.objectContaining({ CallSid: agent, DialCallStatus: 'completed', DialCallSid: customer }),
    ]);
    // The customer's Enqueue action is only notified (its call has ended), as on one node.
    expect(await record(customer)).toMatchObject({ status: 'completed' });
    expect(await record(agent)).toMatchObject({ status: 'completed' });
  }, 120_000);
});
