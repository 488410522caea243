/**
 * `GET /callqueue/queues` on a node whose queue holds another node's calls (one queue store and
 * one record store shared, as a cluster's Redis and PostgreSQL are): those members show the
 * numbers of their stored calls, not nulls.
 */
import { describe, expect, it } from 'vitest';
import { createEngineApp } from '../../../src/api/engine-server.js';
import { MemoryQueueStore } from '../../../src/queue/memory-store.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ACCOUNT_A, account } from '../../store/fixtures.js';
import { AUTH_A, BASE } from '../harness.js';
import { xml } from './harness.js';

describe('queue state over a shared queue store', () => {
  it("lists another node's waiting call with its numbers, read from the store", async () => {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    const queues = new MemoryQueueStore();
    const node = (seed: number, instanceId: string) =>
      createEngineApp({
        store,
        baseUrl: BASE,
        clock: 'virtual',
        seed,
        accountSid: ACCOUNT_A,
        console: false,
        engine: { instanceId, queues: { store: queues } },
      });
    const [one, two] = [await node(1, 'n1'), await node(2, 'n2')];
    for (const { engine } of [one, two]) {
      engine.registerHandler('http://app/wait', () => xml('<Enqueue>support</Enqueue>'));
      engine.setNumber('+15550100', { voiceUrl: 'http://app/wait', accountSid: ACCOUNT_A });
    }
    const mine = one.engine.incomingCall('+15551111', '+15550100');
    const theirs = two.engine.incomingCall('+15552222', '+15550100');
    await one.engine.advance(1000);
    await two.engine.advance(1000);

    const res = await one.app.fetch(
      new Request(`${BASE}/callqueue/queues`, { headers: { Authorization: AUTH_A } }),
    );
    expect(res.status).toBe(200);
    const { queues: listed } = (await res.json()) as {
      queues: Array<{
        agents: { members: Array<{ callSid: string; from: string | null; to: string | null }> };
      }>;
    };
    expect(listed).toHaveLength(1);
    expect(listed[0]?.agents.members.map((m) => [m.callSid, m.from, m.to])).toEqual([
      [mine.sid, '+15551111', '+15550100'],
      [theirs.sid, '+15552222', '+15550100'],
    ]);
    await one.close();
    await two.close();
  });
});
