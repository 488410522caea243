import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_B } from '../store/fixtures.js';
import { setupWithEngine } from './designer/harness.js';
import { AUTH_A, AUTH_B, basic } from './harness.js';

const PIN = 'TL00000000000000000000000000000002';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});
const ROOT = '/platform/2012-04-24';

async function withSubAccount() {
  const t = await setupWithEngine();
  cleanups.push(() => t.close());
  const created = await t.json(`${ROOT}/Accounts.json`, t.form({ FriendlyName: 'Customer two' }));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const sub = created.body as { sid: string; auth_token: string };
  return { t, sub, auth: basic(sub.sid, sub.auth_token) };
}

describe('{api_root}/Accounts: sub-accounts', () => {
  it('creates, lists, fetches and renames a sub-account, which works on its own and stays isolated', async () => {
    const { t, sub, auth } = await withSubAccount();
    expect(sub).toMatchObject({
      friendly_name: 'Customer two',
      status: 'active',
      owner_account_sid: t.engine.accountSid,
      auth_token: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const list = await t.json(`${ROOT}/Accounts.json`);
    expect(list.body.accounts.map((a: { sid: string }) => a.sid)).toEqual([t.engine.accountSid, sub.sid]);
    expect(list.body.accounts[1]).not.toHaveProperty('auth_token');
    // The sub-account authenticates with its own token and sees only itself.
    expect((await t.json(`${ROOT}/Accounts/${sub.sid}.json`, { auth })).body.sid).toBe(sub.sid);
    expect((await t.json(`${ROOT}/Accounts.json`, { auth })).body.accounts).toHaveLength(1);
    expect((await t.json(`${ROOT}/Accounts/${t.engine.accountSid}.json`, { auth })).status).toBe(403);
    expect((await t.json(`${ROOT}/Accounts.json`, { ...t.form({ FriendlyName: 'x' }), auth })).status).toBe(
      403,
    );
    // Another account cannot reach it.
    expect((await t.json(`${ROOT}/Accounts/${sub.sid}.json`, { auth: AUTH_B })).status).toBe(403);
    const renamed = await t.json(`${ROOT}/Accounts/${sub.sid}.json`, t.form({ FriendlyName: 'Customer 2' }));
    expect(renamed.body.friendly_name).toBe('Customer 2');
    expect((await t.json(`${ROOT}/Accounts/${sub.sid}.json`, t.form({ Status: 'paused' }))).status).toBe(400);
    expect(ACCOUNT_B).not.toBe(sub.sid);
  });

  it('a suspended account is refused with 403 code 20005 until made active again', async () => {
    const { t, sub, auth } = await withSubAccount();
    const suspended = await t.json(`${ROOT}/Accounts/${sub.sid}.json`, t.form({ Status: 'suspended' }));
    expect(suspended.body.status).toBe('suspended');
    const refused = await t.json(`${ROOT}/Accounts/${sub.sid}/Calls.json`, { auth });
    expect(refused.body).toMatchObject({ status: 403, code: 20005, kind: 'account-not-active' });
    expect((await t.json('/projects', { auth })).status).toBe(403);
    await t.json(`${ROOT}/Accounts/${sub.sid}.json`, t.form({ Status: 'active' }));
    expect((await t.json(`${ROOT}/Accounts/${sub.sid}/Calls.json`, { auth })).status).toBe(200);
    // An account cannot suspend itself through the API.
    expect(
      (await t.json(`${ROOT}/Accounts/${sub.sid}.json`, { ...t.form({ Status: 'suspended' }), auth })).status,
    ).toBe(403);
    expect(AUTH_A).toBeDefined();
  });

  it('closing a sub-account ends its live calls, and closed is final', async () => {
    const { t, sub, auth } = await withSubAccount();
    const app = (await t.json(`/projects?name=pin&template=${PIN}`, { method: 'POST', auth })).body
      .sid as string;
    const placed = await t.json(`${ROOT}/Accounts/${sub.sid}/Calls.json`, {
      ...t.form({
        From: '+15550100',
        To: '+15550200',
        Url: `http://vd.test/visual-designer/services/apps/${app}/controller`,
      }),
      auth,
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    await t.advance(2);
    const live = await t.json(`${ROOT}/Accounts/${sub.sid}/Calls/${placed.body.sid}.json`, { auth });
    expect(live.body.status).toBe('in-progress');
    const closed = await t.json(`${ROOT}/Accounts/${sub.sid}.json`, t.form({ Status: 'closed' }));
    expect(closed.body.status).toBe('closed');
    await t.advance(1);
    const ended = await t.json(`${ROOT}/Accounts/${t.engine.accountSid}/Calls.json`);
    expect(ended.status).toBe(200);
    const call = await t.store.calls.get(sub.sid, placed.body.sid);
    expect(call?.status).toBe('completed');
    const reopen = await t.json(`${ROOT}/Accounts/${sub.sid}.json`, t.form({ Status: 'active' }));
    expect(reopen.body).toMatchObject({ status: 400, parameter: 'Status' });
  });
});
