import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { ensureAccount } from '../../src/api/server.js';
import {
  createAccountCommand,
  listAccountsCommand,
  rotateTokenCommand,
  setAccountStatusCommand,
} from '../../src/cli/commands/account.js';
import { createProgram } from '../../src/cli/program.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { call } from '../store/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const basic = (sid: string, token: string) => `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;

describe('rcml account rotate-token', () => {
  it('replaces the token of a store a server is using: the old one fails at the next request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-account-'));
    dirs.push(dir);
    const store = await openSqliteStore({ dir });
    const { account, authToken } = await ensureAccount(store, {});
    // A live call of the running server: opening the store beside it must leave it live.
    await store.calls.put(call(1, { accountSid: account.sid, status: 'in-progress', endTime: undefined }));
    const app = createApp({ store });
    const list = (token: string) =>
      app.fetch(
        new Request(`http://x/platform/2012-04-24/Accounts/${account.sid}/Calls.json`, {
          headers: { Authorization: basic(account.sid, token) },
        }),
      );
    expect((await list(authToken as string)).status).toBe(200);

    const out = await rotateTokenCommand({ data: dir });
    expect(out).toMatchObject({ exitCode: 0, stderr: '' });
    const token = /auth token: ([0-9a-f]{32})/.exec(out.stdout)?.[1] as string;
    expect(out.stdout).toContain(`account sid: ${account.sid}`);
    expect(out.stdout).toContain(`signing key: ${account.signingKey}\n`);
    expect((await list(authToken as string)).status).toBe(401);
    expect((await list(token)).status).toBe(200);
    expect((await store.calls.get(account.sid, call(1).sid))?.status).toBe('in-progress');

    const again = await rotateTokenCommand({ data: dir, accountSid: account.sid, newSigningKey: true });
    expect(again.stdout).toMatch(/signing key: [0-9a-f]{32} \(new\)/);
    expect((await store.accounts.get(account.sid))?.signingKey).not.toBe(account.signingKey);
    await store.close();
  });

  it('says which account is missing, and refuses a bad sid as a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-account-'));
    dirs.push(dir);
    expect(await rotateTokenCommand({ data: dir })).toMatchObject({
      exitCode: 1,
      stderr: 'rcml account rotate-token: the store has no account\n',
    });
    const sid = `AC${'f'.repeat(32)}`;
    expect((await rotateTokenCommand({ data: dir, accountSid: sid })).stderr).toContain(`no account ${sid}`);
    expect((await rotateTokenCommand({ data: dir, database: 'mysql://x' })).exitCode).toBe(2);
    const program = createProgram();
    const quiet = { writeErr: () => undefined, outputError: () => undefined };
    for (const c of program.commands) for (const sub of [c, ...c.commands]) sub.configureOutput(quiet);
    await expect(
      program.parseAsync(['node', 'rcml', 'account', 'rotate-token', '--account-sid', 'AC12']),
    ).rejects.toMatchObject({ code: 'commander.invalidArgument' });
  });
});

describe('rcml account create | list | suspend | activate | close', () => {
  it('manages the accounts of a data directory; a running app sees each change at its next request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-accounts-'));
    dirs.push(dir);
    const store = await openSqliteStore({ dir });
    const { account: first } = await ensureAccount(store, {});
    const app = createApp({ store });
    const created = await createAccountCommand({ data: dir, friendlyName: 'Second customer' });
    expect(created).toMatchObject({ exitCode: 0, stderr: '' });
    const sid = /account sid: (AC[0-9a-f]{32})/.exec(created.stdout)?.[1] as string;
    const token = /auth token: ([0-9a-f]{32})/.exec(created.stdout)?.[1] as string;
    const calls = () =>
      app.fetch(
        new Request(`http://x/platform/2012-04-24/Accounts/${sid}/Calls.json`, {
          headers: { Authorization: basic(sid, token) },
        }),
      );
    expect((await calls()).status).toBe(200);
    const sub = await createAccountCommand({ data: dir, owner: sid });
    expect(sub.exitCode).toBe(0);
    const listed = await listAccountsCommand({ data: dir });
    const rows = listed.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(new RegExp(`^${first.sid}  active`));
    expect(rows[1]).toMatch(new RegExp(`^${sid}  active .* Second customer$`));
    expect(rows[2]).toContain(`  ${sid}  `);

    expect((await setAccountStatusCommand({ data: dir, accountSid: sid, status: 'suspended' })).stdout).toBe(
      `account ${sid}: suspended\n`,
    );
    const refused = await calls();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 20005 });
    await setAccountStatusCommand({ data: dir, accountSid: sid, status: 'active' });
    expect((await calls()).status).toBe(200);
    await setAccountStatusCommand({ data: dir, accountSid: sid, status: 'closed' });
    expect((await calls()).status).toBe(403);
    const reopen = await setAccountStatusCommand({ data: dir, accountSid: sid, status: 'active' });
    expect(reopen).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('closing is final') });
    const unknown = await setAccountStatusCommand({
      data: dir,
      accountSid: `AC${'0'.repeat(32)}`,
      status: 'closed',
    });
    expect(unknown.exitCode).toBe(1);
    await store.close();
  });
});
