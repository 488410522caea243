/**
 * Two real `rcml serve` nodes, their own Redis: node 2 is frozen (SIGSTOP) past its TTL while it
 * runs a call, node 1 takes the call over, then node 2 is thawed. The thawed node must not act
 * on the call any more: no webhook, no write; it learns it was declared dead and exits 75, and
 * starts again under a new epoch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase, eventually } from '../support/cluster.js';
import { accountRequests, documentServer, startNodes } from '../support/cluster-nodes.js';
import { startOwnRedis } from '../support/redis-server.js';
import { exitOf, type ServeProcess } from '../support/serve-process.js';
import { PG_URL } from '../support/services.js';

const ACCOUNT = `AC${'f'.repeat(32)}`;
const TOKEN = 'split-brain-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
const HOLD = '+15550100';
/** Two nodes only on a busy machine: 2 s of silence is a death. */
const TTL_MS = 2000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const { send, json } = accountRequests(AUTH);

describe.skipIf(!PG_URL)('a node frozen past its TTL and thawed after its takeover', () => {
  it('sends no webhook and writes nothing for the calls taken over, exits 75 and rejoins', async () => {
    const app = await documentServer(
      {
        '/hold': '<Say>hello</Say><Pause length="5"/><Redirect>/after</Redirect>',
        '/after': '<Pause length="3600"/>',
        '/status': ' ',
      },
      cleanups,
    );
    const database = await clusterDatabase(cleanups);
    const redis = await startOwnRedis(cleanups);
    const env = { RCML_DATABASE_URL: database, RCML_REDIS_URL: redis.url };
    const common = [
      ...['--clock', 'virtual', '--node-ttl-ms', String(TTL_MS)],
      ...['--account-sid', ACCOUNT, '--auth-token', TOKEN, '--log-format', 'json'],
      ...['--number', `${HOLD}=${app.url}/hold`],
    ];
    const [one, two] = (await startNodes(cleanups, env, common, [{ id: 'n1' }, { id: 'n2' }])) as [
      ServeProcess,
      ServeProcess,
    ];
    const placed = await json(
      two.url,
      `${ROOT}/Calls.json`,
      `From=%2B15550100&To=%2B15550123&Url=${encodeURIComponent(`${app.url}/hold`)}` +
        `&StatusCallback=${encodeURIComponent(`${app.url}/status`)}&StatusCallbackEvent=answered&StatusCallbackEvent=completed`,
    );
    const sid = placed.sid as string;
    await eventually('the call in its document', async () => {
      await json(two.url, '/sim/Advance', 'Seconds=1');
      return app.of('/hold', sid).length === 1 ? true : undefined;
    });
    await eventually('the call answered in the shared records', async () =>
      (await json(one.url, `${ROOT}/Calls/${sid}.json`)).status === 'in-progress' ? true : undefined,
    );

    two.child.kill('SIGSTOP');
    const closed = await eventually('node 1 to close node 2’s call', async () => {
      const record = await json(one.url, `${ROOT}/Calls/${sid}.json`);
      return record.status === 'completed' ? record : undefined;
    });
    // The survivor sends the final status callback, once, as the call's node would have.
    const final = await eventually('the final status callback', async () => app.of('/status', sid)[1]);
    expect(app.of('/status', sid)[0]).toMatchObject({ CallStatus: 'in-progress', SequenceNumber: '0' });
    expect(final).toMatchObject({ CallStatus: 'completed', SequenceNumber: '1', InstanceId: 'n2' });
    expect(Number(final.CallDuration)).toBeGreaterThanOrEqual(0);
    const fetched = app.requests.length;

    // Thawed, and its virtual clock moved past the Pause: the call would now fetch /after.
    two.child.kill('SIGCONT');
    await send(two.url, '/sim/Advance', 'Seconds=10').catch(() => undefined);
    await eventually('node 2 to exit', async () => (two.child.exitCode !== null ? true : undefined), 10_000);
    expect(two.child.exitCode).toBe(75);
    await eventually('its last log line', async () =>
      two.err().includes('declared dead by the cluster') ? true : undefined,
    );
    expect(app.of('/after', sid)).toEqual([]);
    expect(app.requests.length).toBe(fetched);
    expect(app.of('/status', sid).map((p) => p.CallStatus)).toEqual(['in-progress', 'completed']);
    // Its record is the survivor's: owner, end and the takeover notice untouched.
    expect(await json(one.url, `${ROOT}/Calls/${sid}.json`)).toEqual(closed);
    const notes = (await json(one.url, `${ROOT}/Notifications.json?PageSize=100`)).notifications as Array<
      Record<string, unknown>
    >;
    expect(notes.map((n) => [n.call_sid, String(n.error_code)])).toEqual([[sid, '12401']]);
    expect(notes[0]?.message_text).toMatch(/marked completed by node n1/);

    // Started again, it rejoins under a new epoch and takes calls.
    await exitOf(two.child);
    const [back] = (await startNodes(cleanups, env, common, [{ id: 'n2' }])) as [ServeProcess];
    expect((await fetch(`${back.url}/ready`)).status).toBe(200);
    const again = await json(back.url, '/sim/Calls', `From=%2B17770000001&To=${encodeURIComponent(HOLD)}`);
    await json(back.url, '/sim/Advance', 'Seconds=1');
    expect(app.of('/hold', again.sid as string)).toHaveLength(1);
  }, 60_000);
});
