import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { egressPolicy, isLoopbackHost } from '../../src/cli/commands/serve-egress.js';
import { createProgram } from '../../src/cli/program.js';
import { startServeProcess } from '../support/serve-process.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('rcml serve egress policy', () => {
  it('is off on a loopback host and on otherwise, unless set; the banner line says which and why', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.com']) expect(isLoopbackHost(host)).toBe(false);
    expect(egressPolicy({ host: '127.0.0.1' })).toEqual({
      policy: { denyPrivateNetworks: false, allow: [] },
      line: 'egress: any address (loopback host; --deny-private-networks to refuse private networks)',
    });
    expect(egressPolicy({ host: '0.0.0.0', egressAllow: ['10.0.0.0/8'] })).toEqual({
      policy: { denyPrivateNetworks: true, allow: ['10.0.0.0/8'] },
      line: 'egress: private networks refused (the host is not loopback), allowed: 10.0.0.0/8',
    });
    expect(egressPolicy({ host: '127.0.0.1', denyPrivateNetworks: true }).line).toBe(
      'egress: private networks refused (set)',
    );
    expect(egressPolicy({ host: '0.0.0.0', denyPrivateNetworks: false }).policy.denyPrivateNetworks).toBe(
      false,
    );
  });

  it('refuses a bad value or allow-list entry as a usage error naming the option', async () => {
    for (const [args, option] of [
      [['--deny-private-networks', 'maybe'], '--deny-private-networks'],
      [['--egress-allow', '10.0.0.0/8,intranet'], '--egress-allow'],
    ] as const) {
      const program = createProgram();
      for (const command of [program, ...program.commands]) {
        command.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
      }
      const err = await program.parseAsync(['serve', ...args], { from: 'user' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CommanderError);
      expect((err as CommanderError).message).toContain(option);
    }
  });

  it('reads RCML_DENY_PRIVATE_NETWORKS: a number routed to a loopback URL is refused with a notification', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-egress-'));
    dirs.push(data);
    const served = await startServeProcess(
      ['--data', data, '--clock', 'virtual', '--number', '+15550100=http://127.0.0.1:9/app'],
      { RCML_DRAIN_SECONDS: '0', RCML_DENY_PRIVATE_NETWORKS: 'yes' },
    );
    children.push(served.child);
    const out = served.out();
    expect(out).toContain('egress: private networks refused (set)');
    const url = served.url;
    const sid = /account sid: (AC[0-9a-f]{32})/.exec(out)?.[1] as string;
    const token = /auth token: (\S+)/.exec(out)?.[1] as string;
    const headers = {
      Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    const call = (await fetch(`${url}/sim/Calls`, {
      method: 'POST',
      headers,
      body: 'From=%2B15551111&To=%2B15550100',
    }).then((r) => r.json())) as { sid: string };
    await fetch(`${url}/sim/Advance`, { method: 'POST', headers, body: 'Seconds=5' });
    const root = `${url}/platform/2012-04-24/Accounts/${sid}`;
    const done = (await fetch(`${root}/Calls/${call.sid}.json`, { headers }).then((r) => r.json())) as {
      status: string;
    };
    expect(done.status).toBe('failed');
    const list = (await fetch(`${root}/Notifications.json`, { headers }).then((r) => r.json())) as {
      notifications: Array<{ error_code: string; message_text: string }>;
    };
    expect(list.notifications.map((n) => [n.error_code, n.message_text])).toEqual([
      ['11205', 'HTTP I/O error: address 127.0.0.1 is a loopback address, refused by the egress policy'],
    ]);
    await new Promise((resolve) => {
      served.child.once('exit', resolve);
      served.child.kill('SIGTERM');
    });
  });
});
