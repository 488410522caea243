/**
 * Rate limits across the nodes of a cluster: a live-call write forwarded from the node a client
 * asked to the call's owner is counted once, on the node asked; a hop header a client sends
 * itself (unsigned, or signed with a wrong secret or too long ago) is counted and stops nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import {
  type CallOwners,
  FORWARD_SIGNATURE_HEADER,
  FORWARD_SIGNATURE_WINDOW_MS,
  FORWARDED_BY_HEADER,
  forwardSignature,
} from '../../src/api/cluster-forward.js';
import { createNodeListener } from '../../src/api/node-listener.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../store/fixtures.js';

const SECRET = 'a'.repeat(64);
const CALL = `CA${'1'.repeat(32)}`;
const PATH = `/platform/2012-04-24/Accounts/${ACCOUNT_A}/Calls/${CALL}.json`;
const AUTH = `Basic ${Buffer.from(`${ACCOUNT_A}:${tokenOf(ACCOUNT_A)}`).toString('base64')}`;
/** Requests each node's bucket holds; the clock never moves, so none come back. */
const BURST = 3;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** Node n1 owns the call and listens on 127.0.0.1; n2 is asked by the client. */
async function cluster() {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const urls: Record<string, string> = {};
  const owners = (nodeId: string): CallOwners => ({
    nodeId,
    ownerOf: async (_account, call) => (call === CALL ? 'n1' : undefined),
    urlOf: async (node) => urls[node],
    settleDeadOwner: async () => 'alive',
    forwardSecret: () => SECRET,
  });
  const app = (nodeId: string) =>
    createApp({
      store,
      callOwners: owners(nodeId),
      rateLimit: { requestsPerSecond: 1, burst: BURST, now: () => 0 },
    });
  const one = app('n1');
  /** Headers of every request n1 received. */
  const received: Headers[] = [];
  const server = createServer(
    createNodeListener({
      fetch: (req: Request) => {
        received.push(req.headers);
        return one.fetch(req);
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  urls.n1 = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const two = app('n2');
  const post = (node: 'n1' | 'n2', headers: Record<string, string> = {}) => {
    const init = {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: 'Status=ringing',
    };
    return node === 'n1'
      ? fetch(`${urls.n1}${PATH}`, init)
      : two.fetch(new Request(`http://n2.test${PATH}`, init));
  };
  return { post, received };
}

describe('rate limits of forwarded requests', () => {
  it('count a forwarded request once, on the node the client asked', async () => {
    const { post, received } = await cluster();
    const direct = await post('n1');
    const answers: Response[] = [];
    for (let i = 0; i < BURST; i++) answers.push(await post('n2'));
    // Each was the owner's answer, signed by n2.
    for (const answer of answers) expect(answer.status).toBe(direct.status);
    expect(received).toHaveLength(1 + BURST);
    for (const headers of received.slice(1)) {
      expect(headers.get(FORWARDED_BY_HEADER)).toBe('n2');
      expect(headers.get(FORWARD_SIGNATURE_HEADER)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    }
    // n2's bucket is empty: it answers 429 itself, without asking n1.
    const refused = await post('n2');
    expect(refused.status).toBe(429);
    expect(received).toHaveLength(1 + BURST);
    // n1 counted only the request made to it: the rest of its bucket is left.
    for (let i = 1; i < BURST; i++) expect((await post('n1')).status).toBe(direct.status);
    expect((await post('n1')).status).toBe(429);
  });

  it('count a request carrying a hop header a client made up, and forward it all the same', async () => {
    const { post, received } = await cluster();
    const now = Date.now();
    const forged: Array<Record<string, string>> = [
      { [FORWARDED_BY_HEADER]: 'n2' },
      {
        [FORWARDED_BY_HEADER]: 'n2',
        [FORWARD_SIGNATURE_HEADER]: forwardSignature('b'.repeat(64), 'n2', 'POST', PATH, AUTH),
      },
      {
        [FORWARDED_BY_HEADER]: 'n2',
        [FORWARD_SIGNATURE_HEADER]: forwardSignature(
          SECRET,
          'n2',
          'POST',
          PATH,
          AUTH,
          now - FORWARD_SIGNATURE_WINDOW_MS - 1000,
        ),
      },
    ];
    expect(forged).toHaveLength(BURST);
    for (const headers of forged) expect((await post('n1', headers)).status).not.toBe(429);
    expect((await post('n1', forged[0])).status).toBe(429);
    // Sent to n2, the made-up header does not stop forwarding: n1 gets n2's own, signed.
    const before = received.length;
    // n1's bucket is empty: its answer shows it did not count n2's signed forward.
    expect((await post('n2', forged[1])).status).not.toBe(429);
    expect(received).toHaveLength(before + 1);
    const hop = received[before] as Headers;
    expect(hop.get(FORWARDED_BY_HEADER)).toBe('n2');
    expect(hop.get(FORWARD_SIGNATURE_HEADER)).not.toBe(forged[1][FORWARD_SIGNATURE_HEADER]);
  });
});
