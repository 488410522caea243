import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts `rcml serve` and resolves with what it printed once it listens. */
function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; out: string; child: ChildProcess }> {
  // No drain: calls left queued on a virtual clock would otherwise hold the stop for 30 s.
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, RCML_DRAIN_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && /account sid: AC/.test(out)) resolve({ url, out, child });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

describe('rcml serve', () => {
  it('creates an account on first start, prints it, and serves the API', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-serve-'));
    dirs.push(data);
    const first = await serve(['--data', data, '--clock', 'virtual']);
    const sid = /account sid: (AC[0-9a-f]{32})/.exec(first.out)?.[1] as string;
    const token = /auth token: ([0-9a-f]{32})/.exec(first.out)?.[1] as string;
    expect(sid).toBeDefined();
    expect(token).toBeDefined();
    expect(first.out).toMatch(
      /signing key: [0-9a-f]{32} \(signs webhooks' X-Twilio-Signature: validate with it, not the auth token\)/,
    );
    const auth = { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
    const res = await fetch(`${first.url}/platform/2012-04-24/Accounts/${sid}/Calls.json`, { headers: auth });
    expect(res.status).toBe(200);
    const create = await fetch(`${first.url}/platform/2012-04-24/Accounts/${sid}/Calls.json`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'From=%2B1&To=%2B2&Url=http%3A%2F%2F127.0.0.1%3A9%2F',
    });
    expect(create.status).toBe(200);
    expect(((await create.json()) as { status: string }).status).toBe('queued');
    await stop(first.child);
    const second = await serve(['--data', data], { RCML_SIM: 'yes' });
    expect(second.out).toContain(`account sid: ${sid}`);
    expect(second.out).not.toContain('auth token');
    // RCML_SIM (--sim) lets /sim set the parties every account shares on the real clock too.
    const party = await fetch(`${second.url}/sim/Parties`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ address: '+15550111', outcome: 'busy' }),
    });
    expect(party.status).toBe(200);
    await stop(second.child);
  });

  it('takes the account from the environment', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-serve-'));
    dirs.push(data);
    const sid = `AC${'e'.repeat(32)}`;
    const { url, child } = await serve(['--data', data], {
      RCML_ACCOUNT_SID: sid,
      RCML_AUTH_TOKEN: 'env-token-1',
    });
    const auth = { Authorization: `Basic ${Buffer.from(`${sid}:env-token-1`).toString('base64')}` };
    expect((await fetch(`${url}/2012-04-24/Accounts/${sid}/Recordings.json`, { headers: auth })).status).toBe(
      200,
    );
    // On the real clock, without --sim, /sim leaves what every account shares alone.
    const party = await fetch(`${url}/sim/Parties`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ address: '+15550111', outcome: 'busy' }),
    });
    expect(party.status).toBe(403);
    expect(((await party.json()) as { kind: string }).kind).toBe('simulation-off');
    await stop(child);
  });

  it('refuses bad options as usage errors (exit 2), naming the option', async () => {
    for (const [args, option] of [
      [['--clock', 'sundial'], '--clock'],
      [['--port', 'http'], '--port'],
      [['--base-url', 'nope'], '--base-url'],
      [['--number', 'pizza=http://x/'], '--number'],
      [['--number', '+1555=ftp://x/'], '--number'],
      [['--seed', '-1'], '--seed'],
      [['--sim', 'maybe'], '--sim'],
    ] as const) {
      const program = createProgram();
      for (const command of [program, ...program.commands]) {
        command.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
      }
      const err = await program.parseAsync(['serve', ...args], { from: 'user' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CommanderError);
      expect((err as CommanderError).exitCode).not.toBe(0);
      expect((err as CommanderError).message).toContain(option);
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--clock', 'sundial'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    const noProject = spawnSync(
      process.execPath,
      ['--import', 'tsx', MAIN, 'serve', '--number', '+15550100'],
      {
        encoding: 'utf8',
      },
    );
    expect(noProject.status).toBe(2);
    expect(noProject.stderr).toContain('--project');
  });

  it('serves a Visual Designer project as an application reached through a number', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-serve-'));
    dirs.push(data);
    const project = join(import.meta.dirname, '../../fixtures/designer/say.json');
    const { url, out, child } = await serve([
      '--data',
      data,
      '--clock',
      'virtual',
      '--project',
      project,
      '--number',
      '+15550100',
    ]);
    const app = /application (AP[0-9a-f]{32}): (\S+)/.exec(out);
    expect(app?.[2]).toBe(`${url}/visual-designer/services/apps/${app?.[1]}/controller`);
    expect(out).toContain(`number +15550100 -> ${app?.[2]}`);
    const sid = /account sid: (AC[0-9a-f]{32})/.exec(out)?.[1] as string;
    const token = /auth token: (\S+)/.exec(out)?.[1] as string;
    const auth = `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
    const post = async (path: string, body: string, method = 'POST') =>
      (await fetch(url + path, {
        method,
        headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      }).then((r) => r.json())) as Record<string, string | number>;
    const call = await post('/sim/Calls', 'From=%2B15551111&To=%2B15550100');
    await post('/sim/Advance', 'Seconds=30');
    const root = `/platform/2012-04-24/Accounts/${sid}`;
    const done = (await fetch(`${url}${root}/Calls/${call.sid}.json`, {
      headers: { Authorization: auth },
    }).then((r) => r.json())) as Record<string, string | number>;
    // "Hello +15551111" said twice: 15 characters at 15 per second, twice.
    expect(done).toMatchObject({ status: 'completed', duration: 2 });
    const renamed = await post(`${root}/Applications/${app?.[1]}.json`, 'FriendlyName=Greeter', 'PUT');
    expect(renamed).toMatchObject({
      friendly_name: 'Greeter',
      rcml_url: `/visual-designer/services/apps/${app?.[1]}/controller`,
    });
    // The --number is the served account's: another account cannot re-route it through /sim.
    const other = await post(`${root.replace(`/Accounts/${sid}`, '')}/Accounts.json`, 'FriendlyName=Other');
    const otherAuth = `Basic ${Buffer.from(`${other.sid}:${other.auth_token}`).toString('base64')}`;
    const steal = await fetch(`${url}/sim/Numbers`, {
      method: 'POST',
      headers: { Authorization: otherAuth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'Number=%2B15550100&VoiceUrl=http%3A%2F%2Fother.test%2Fsteal',
    });
    expect(steal.status).toBe(409);
    expect(((await steal.json()) as { kind: string }).kind).toBe('number-unavailable');
    await stop(child);
  });
});
