/**
 * What a node keeps in memory from the shared store follows writes made through another node:
 * designer builds, settings and deletions, Call Queuing routes, credentials; and a node whose
 * Redis connection came back forgets everything it kept.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { changesClientName } from '../../src/cluster/changes.js';
import { postgresCallQueueStore } from '../../src/store/callqueue/postgres.js';
import { rotateAuthToken } from '../../src/store/credentials.js';
import { postgresDesignerStore } from '../../src/store/designer/postgres.js';
import { AUTH_A } from '../api/harness.js';
import { ACCOUNT_A } from '../store/fixtures.js';
import { PG_URL, REDIS_URL } from '../support/services.js';
import { BASE, type SharedNode, type SharedNodes, sharedNodes } from './shared-nodes.js';

const IVR = 'TL00000000000000000000000000000001';
const SERVICE = '/visual-designer/services';
const CQ_NUMBER = '+15550170009';

let cluster: SharedNodes | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function json(node: SharedNode, path: string, init: RequestInit = {}) {
  const res = await node.fetch(path, init);
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const render = async (node: SharedNode, sid: string, query: string) => {
  const res = await node.fetch(`${SERVICE}/apps/${sid}/controller?${query}`);
  return { status: res.status, text: await res.text() };
};
/** The Say texts a node's engine offered on a call, in order. */
const said = (node: SharedNode, callSid: string) =>
  node.events.flatMap((e) =>
    e.type === 'verb' && e.callSid === callSid && e.verb === 'Say' ? [String(e.details?.text)] : [],
  );

/** Saves a new structure of the IVR application on `node` (not built). */
async function editMenu(node: SharedNode, sid: string, menu: string, sales: string) {
  const structure = (await json(node, `${SERVICE}/projects/${sid}`)).body;
  structure.nodes[0].steps[0].steps[0].phrase = menu;
  structure.nodes[1].steps[1].phrase = sales;
  expect((await json(node, `${SERVICE}/projects/${sid}`, { ...post(structure), method: 'PUT' })).status).toBe(
    200,
  );
}

describe.skipIf(!PG_URL || !REDIS_URL)('caches of shared records across two nodes', () => {
  it('a designer build made on one node runs on the other; a running call keeps its build; a deletion is a 404', async () => {
    cluster = await sharedNodes(AUTH_A);
    const [one, two] = cluster.nodes;
    const created = await json(one, `${SERVICE}/projects?name=ivr&template=${IVR}`, { method: 'POST' });
    const sid = created.body.sid as string;
    // Node two compiles build 1 and a call of its own starts on it.
    two.built.engine.setNumber('+15550100', { voiceUrl: `${BASE}${SERVICE}/apps/${sid}/controller` });
    const running = two.built.engine.incomingCall('+15551111', '+15550100').sid;
    await two.built.engine.advance(1);
    expect(said(two, running)[0]).toContain('For sales press 1');

    await editMenu(one, sid, 'New menu: press 1.', 'Sales, version two.');
    expect((await json(one, `${SERVICE}/projects/${sid}/build`, { method: 'POST' })).body.version).toBe(2);
    await cluster.settle();
    // A request outside any call, and a call starting now, run build 2 on node two.
    expect((await render(two, sid, 'target=sales')).text).toContain('Sales, version two.');
    const fresh = two.built.engine.incomingCall('+15552222', '+15550100').sid;
    await two.built.engine.advance(1);
    expect(said(two, fresh)[0]).toContain('New menu: press 1.');
    // The call that began on build 1 goes on with it.
    two.built.engine.sendDigits(running, '1');
    await two.built.engine.advance(2);
    expect(said(two, running)).toContain('Connecting you to sales.');
    expect(said(two, running).join(' ')).not.toContain('version two');

    // Settings changed on one node apply to the renders of the other (logging on).
    expect((await json(one, `${SERVICE}/projects/${sid}/settings`, post({ logging: true }))).status).toBe(
      200,
    );
    await cluster.settle();
    await render(two, sid, 'target=sales');
    expect((await one.fetch(`${SERVICE}/apps/${sid}/log`).then((r) => r.text())).length).toBeGreaterThan(0);

    expect((await json(one, `${SERVICE}/projects/${sid}`, { method: 'DELETE' })).status).toBe(200);
    await cluster.settle();
    expect(await render(two, sid, 'target=sales')).toMatchObject({ status: 404 });
  });

  it('a Call Queuing number provisioned on one node routes calls placed on the other, until unprovisioned', async () => {
    cluster = await sharedNodes(AUTH_A);
    const [one, two] = cluster.nodes;
    for (const n of cluster.nodes) {
      n.built.engine.registerHandler('http://app.test/first', () => ({
        status: 200,
        contentType: 'text/xml',
        body: '<Response><Say>first</Say></Response>',
      }));
      n.built.engine.registerHandler('http://app.test/second', () => ({
        status: 200,
        contentType: 'text/xml',
        body: '<Response><Say>second</Say></Response>',
      }));
    }
    const callOnTwo = async () => {
      const { sid, phoneNumberSid } = two.built.engine.incomingCall('+15553333', CQ_NUMBER);
      await two.built.engine.advance(5);
      const statuses = two.events.flatMap((e) =>
        e.type === 'call-status' && e.callSid === sid ? [e.status] : [],
      );
      return { sid, status: statuses.at(-1), phoneNumberSid, said: said(two, sid) };
    };
    // Node two started before the number existed: not routed.
    expect((await callOnTwo()).status).toBe('failed');

    const provisioned = await json(
      one,
      '/callqueue/provisioning',
      post({ applicationUrl: 'http://app.test/first', phoneNumber: CQ_NUMBER }),
    );
    expect(provisioned.status).toBe(200);
    await cluster.settle();
    const routed = await callOnTwo();
    expect(routed).toMatchObject({ status: 'completed', phoneNumberSid: provisioned.body.sid });
    expect(routed.said).toEqual(['first']);
    // Node two records the queue product's status callbacks of that call against the number.
    const calls = await json(one, `/callqueue/numbers/${provisioned.body.sid}/calls`);
    expect(calls.body.calls.map((c: { callSid: string }) => c.callSid)).toContain(routed.sid);

    // Overridden on node one: node two follows the new application URL.
    const override = { applicationUrl: 'http://app.test/second', phoneNumber: CQ_NUMBER, override: true };
    expect((await json(one, '/callqueue/provisioning', post(override))).status).toBe(200);
    await cluster.settle();
    expect((await callOnTwo()).said).toEqual(['second']);

    expect((await one.fetch(`/callqueue/numbers/${provisioned.body.sid}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await cluster.settle();
    expect((await callOnTwo()).status).toBe('failed');
  });

  it('a token rotated through one node is refused by the other at once', async () => {
    cluster = await sharedNodes(AUTH_A);
    const [one, two] = cluster.nodes;
    const accountPath = `/platform/2012-04-24/Accounts/${ACCOUNT_A}.json`;
    expect((await two.fetch(accountPath)).status).toBe(200);
    const rotated = await rotateAuthToken(one.store.accounts, ACCOUNT_A);
    expect((await two.fetch(accountPath)).status).toBe(401);
    const auth = `Basic ${Buffer.from(`${ACCOUNT_A}:${rotated.authToken}`).toString('base64')}`;
    expect((await two.fetch(accountPath, { auth })).status).toBe(200);
  });

  it('a node whose Redis connection came back forgets every build and route it kept', async () => {
    cluster = await sharedNodes(AUTH_A);
    const [one, two] = cluster.nodes;
    const sid = (await json(one, `${SERVICE}/projects?name=ivr&template=${IVR}`, { method: 'POST' })).body
      .sid as string;
    expect((await render(two, sid, 'target=sales')).text).toContain('Connecting you to sales.');
    // Writes whose notices were lost: a build and a number written to the store directly.
    await editMenu(one, sid, 'Lost menu.', 'Lost sales.');
    const designer = postgresDesignerStore(one.store.connection);
    const record = await designer.apps.get(ACCOUNT_A, sid);
    if (!record?.build) throw new Error('the application has no build');
    const build = { ...record.build, version: 2, state: record.state };
    expect(await designer.apps.update({ ...record, build })).toBe('updated');
    await postgresCallQueueStore(one.store.connection).numbers.put({
      sid: `PN${'e'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      phoneNumber: CQ_NUMBER,
      applicationUrl: 'http://app.test/lost',
      applicationUrlMethod: 'POST',
      byoc: true,
      revision: 1,
      dateCreated: 1,
      dateUpdated: 1,
    });
    await cluster.settle();
    expect((await render(two, sid, 'target=sales')).text).toContain('Connecting you to sales.');
    expect(two.built.engine.incomingCall('+15554444', CQ_NUMBER).status).toBe('failed');

    // Node two's subscribed connection is cut; once back, it forgets what it kept.
    const admin = new Redis(REDIS_URL);
    try {
      const reset = two.changes.nextReset();
      const clients = await admin.client('LIST');
      const name = changesClientName(cluster.prefix, two.id);
      const id = /id=(\d+) .*name=(\S+)/g;
      const found = [...String(clients).matchAll(id)].find((m) => m[2] === name)?.[1];
      expect(found).toBeDefined();
      await admin.client('KILL', 'ID', found as string);
      await reset;
    } finally {
      admin.disconnect();
    }
    expect(two.changes.resetCount).toBe(1);
    expect((await render(two, sid, 'target=sales')).text).toContain('Lost sales.');
    const routed = two.built.engine.incomingCall('+15554444', CQ_NUMBER);
    expect(routed.phoneNumberSid).toBe(`PN${'e'.repeat(32)}`);
    // The connection listens again: a later change is heard.
    expect((await json(one, `${SERVICE}/projects/${sid}`, { method: 'DELETE' })).status).toBe(200);
    await cluster.settle();
    expect(await render(two, sid, 'target=sales')).toMatchObject({ status: 404 });
  });
});
