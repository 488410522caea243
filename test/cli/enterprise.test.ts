import type { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/api/server.js';
import { enterpriseCreateCommand } from '../../src/cli/commands/enterprise.js';
import { createProgram } from '../../src/cli/program.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../store/fixtures.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function server() {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const s = await startServer({ store, host: '127.0.0.1', port: 0, enterprise: { scryptCost: 1024 } });
  closers.push(s.close);
  return s;
}

const base = {
  accountSid: ACCOUNT_A,
  authToken: tokenOf(ACCOUNT_A),
  name: 'Acme',
  autoAttendant: true,
};

describe('rcml enterprise create', () => {
  it('creates the enterprise and its first BG_ADMIN', async () => {
    const s = await server();
    const out = await enterpriseCreateCommand({
      ...base,
      url: s.url,
      adminEmail: 'b@acme.test',
      adminPassword: 'password1',
    });
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(
      /^enterprise EN[0-9a-f]{32}: Acme\nuser RCS[0-9a-f]{32}: b@acme\.test \(BG_ADMIN\)\n$/,
    );
  });

  it('exit 1 with the server’s code when refused, 2 for missing credentials or half an admin', async () => {
    const s = await server();
    const wrong = await enterpriseCreateCommand({ ...base, url: s.url, authToken: 'wrong-token' });
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain('HTTP 401');
    const badAdmin = await enterpriseCreateCommand({
      ...base,
      url: s.url,
      adminEmail: 'nope',
      adminPassword: 'password1',
    });
    expect(badAdmin.exitCode).toBe(1);
    expect(badAdmin.stdout).toMatch(/^enterprise EN/);
    expect(badAdmin.stderr).toContain('HTTP 400 invalid-parameter: emailId: must be an e-mail address');
    expect((await enterpriseCreateCommand({ ...base, url: s.url, authToken: undefined })).exitCode).toBe(2);
    expect((await enterpriseCreateCommand({ ...base, url: s.url, adminEmail: 'a@b.test' })).exitCode).toBe(2);
    const unreachable = await enterpriseCreateCommand({ ...base, url: 'http://127.0.0.1:1' });
    expect(unreachable).toMatchObject({ exitCode: 1 });
    expect(unreachable.stderr).toContain('cannot reach');
  });

  it('refuses a missing --name or a bad --url as usage errors', async () => {
    const program = createProgram();
    const quiet = (c: Command) => {
      c.configureOutput({ writeErr: () => {}, writeOut: () => {} }).exitOverride();
      c.commands.forEach(quiet);
    };
    quiet(program);
    await expect(program.parseAsync(['node', 'rcml', 'enterprise', 'create'])).rejects.toThrow();
    await expect(
      program.parseAsync(['node', 'rcml', 'enterprise', 'create', '--name', 'x', '--url', 'ftp://x']),
    ).rejects.toThrow(/absolute http/);
  });
});
