import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDatabase } from '../support/cluster.js';
import { type ServeProcess, startServeProcess } from '../support/serve-process.js';
import { PG_URL, REDIS_PREFIX, REDIS_URL } from '../support/services.js';
import { expectServicesShared } from './services-shared.js';

const ACCOUNT = `AC${'c'.repeat(32)}`;
const TOKEN = 'cluster-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of cleanups.splice(0)) await f();
});

/** Starts one node of the test's account; resolves once it listens. */
async function node(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const started = await startServeProcess(['--account-sid', ACCOUNT, '--auth-token', TOKEN, ...args], env);
  children.push(started.child);
  return started;
}

const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

const get = async (url: string) => (await fetch(url, { headers: { Authorization: AUTH } })).json();
const post = async (url: string, body: string) =>
  (await fetch(url, {
    method: 'POST',
    headers: { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  }).then((r) => r.json())) as Record<string, string>;

describe.skipIf(!PG_URL || !REDIS_URL)('rcml serve nodes on PostgreSQL and Redis', () => {
  it('share accounts and records: every node answers REST reads the same, and each heartbeats', async () => {
    const database = await clusterDatabase(cleanups);
    const prefix = `${REDIS_PREFIX}cluster_${randomBytes(3).toString('hex')}`;
    const env = { RCML_DATABASE_URL: database, RCML_REDIS_URL: REDIS_URL, RCML_REDIS_PREFIX: prefix };
    const project = join(import.meta.dirname, '../../fixtures/designer/say.json');
    // One data directory for both: on PostgreSQL a node neither locks nor writes it.
    const data = mkdtempSync(join(tmpdir(), 'rcml-nodes-'));
    cleanups.push(async () => rmSync(data, { recursive: true, force: true }));
    const [one, two] = await Promise.all([
      node(
        [
          '--node-id',
          'n1',
          '--data',
          data,
          '--clock',
          'virtual',
          '--project',
          project,
          '--number',
          '+15550100',
        ],
        env,
      ),
      node(['--node-id', 'n2', '--data', data, '--clock', 'virtual'], env),
    ]);
    const redis = new Redis(REDIS_URL);
    cleanups.push(async () => redis.disconnect());
    expect((await redis.keys(`${prefix}:node:*`)).sort()).toEqual([`${prefix}:node:n1`, `${prefix}:node:n2`]);

    // Readiness names the shared backends, and needs no authentication.
    const ready = await fetch(`${two.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { store: { ok: true }, postgres: { ok: true }, redis: { ok: true } },
    });

    const call = await post(`${one.url}/sim/Calls`, 'From=%2B15551111&To=%2B15550100');
    await post(`${one.url}/sim/Advance`, 'Seconds=30');
    const root = `/platform/2012-04-24/Accounts/${ACCOUNT}`;
    const fromOne = await get(`${one.url}${root}/Calls/${call.sid}.json`);
    expect(fromOne).toMatchObject({ status: 'completed', duration: 2 });
    // Links name the node's own base URL; everything else is the same record.
    const strip = (x: unknown) =>
      JSON.parse(JSON.stringify(x).replaceAll(one.url, '').replaceAll(two.url, ''));
    expect(strip(await get(`${two.url}${root}/Calls/${call.sid}.json`))).toEqual(strip(fromOne));
    expect(strip(await get(`${two.url}${root}/Calls.json`))).toEqual(
      strip(await get(`${one.url}${root}/Calls.json`)),
    );

    await expectServicesShared(one.url, two.url, AUTH);
    expect(readdirSync(data)).toEqual([]);

    await stop(one.child);
    expect(await redis.keys(`${prefix}:node:*`)).toEqual([`${prefix}:node:n2`]);
    await stop(two.child);
    // Two real processes: their start alone takes seconds on a busy machine.
  }, 90_000);
});
