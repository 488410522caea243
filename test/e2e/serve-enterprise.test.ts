import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enterpriseCreateCommand } from '../../src/cli/commands/enterprise.js';
import { writeWav } from '../../src/engine/wav.js';
import type { Answer } from '../api/enterprise/harness.js';
import { exitOf, startServeProcess } from '../support/serve-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const SID = `AC${'e'.repeat(32)}`;
const TOKEN = 'enterprise-e2e-token';

/** Starts `rcml serve` with a fixed account on a free port; resolves once it listens. */
async function startServe(data: string): Promise<{ url: string; child: ChildProcess }> {
  const served = startServeProcess(['--data', data, '--account-sid', SID, '--auth-token', TOKEN]);
  const { url, child } = await served;
  cleanups.push(() => {
    child.kill('SIGKILL');
    return exitOf(child);
  });
  return { url, child };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('enterprise areas over rcml serve', () => {
  it('goes from zero to a working enterprise with two commands, and keeps it across restarts', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-e2e-ent-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const serve = await startServe(data);
    const auth = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;

    // The second command, in process (its argument parsing is covered by test/cli).
    const cli = await enterpriseCreateCommand({
      url: serve.url,
      accountSid: SID,
      authToken: TOKEN,
      name: 'Acme',
      autoAttendant: true,
      adminEmail: 'boss@acme.test',
      adminPassword: 'secret-pass',
    });
    expect(cli.exitCode).toBe(0);
    const enterpriseSid = /enterprise (EN[0-9a-f]{32}): Acme/.exec(cli.stdout)?.[1] as string;
    const bossSid = /user (RCS[0-9a-f]{32}): boss@acme.test \(BG_ADMIN\)/.exec(cli.stdout)?.[1] as string;
    expect(enterpriseSid).toBeDefined();
    expect(bossSid).toBeDefined();

    const api = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const init: RequestInit = { method, headers: { Authorization: auth, ...headers } };
      if (body instanceof FormData) init.body = body;
      else if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
      }
      const res = await fetch(`${serve.url}${path}`, init);
      return { status: res.status, body: (await res.json()) as Answer['body'] };
    };

    // The BG_ADMIN adds an AA_ADMIN, who may not add users itself.
    const aa = await api(
      'POST',
      '/autoattendant/user',
      { emailId: 'aa@acme.test', role: 'AA_ADMIN' },
      { 'X-Acting-User': bossSid },
    );
    expect(aa.status).toBe(200);
    expect(aa.body.data.enterpriseSid).toBe(enterpriseSid);
    const refused = await api(
      'POST',
      '/autoattendant/user',
      { emailId: 'x@acme.test', role: 'AA_ADMIN' },
      { 'X-Acting-User': 'aa@acme.test' },
    );
    expect(refused).toMatchObject({ status: 409, body: { errorCode: '499' } });

    const announcement = await api('POST', '/autoattendant/announcement', {
      name: 'Hold music',
      enterpriseSid,
      type: 'play',
    });
    const form = new FormData();
    form.set('file', new Blob([writeWav(1).slice().buffer]), 'hold music.wav');
    const uploaded = await api(
      'POST',
      `/autoattendant/file/announcement/${announcement.body.data.sid}`,
      form,
    );
    expect(uploaded.body.data.fileUri).toBe(
      `/autoattendant/file/announcement/${announcement.body.data.sid}/hold_music.wav`,
    );

    // Task Router over the same port: a workspace, a task queue with a worker expression, and an
    // expression refused with its column.
    const workspace = await api('POST', '/taskrouter/workspaces', { enterpriseSid, name: 'Support' });
    expect(workspace.status).toBe(200);
    const queue = await api('POST', '/taskrouter/taskqueues', {
      workspaceSid: workspace.body.data.sid,
      name: 'Billing',
      targetWorkers: 'skills HAS "billing" AND level >= 2',
    });
    expect(queue.status).toBe(200);
    const bad = await api('POST', '/taskrouter/taskqueues', {
      workspaceSid: workspace.body.data.sid,
      name: 'Broken',
      targetWorkers: 'level >=',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^targetWorkers: .* at column \d+$/);

    expect(await stop(serve.child)).toBe(0);
    const again = await startServe(data);
    const queues = await fetch(
      `${again.url}/taskrouter/taskqueues/search?workspaceSid=${workspace.body.data.sid}`,
      { headers: { Authorization: auth } },
    );
    const found = (await queues.json()) as {
      data: { total: number; result: Array<Record<string, unknown>> };
    };
    expect(found.data.total).toBe(1);
    expect(found.data.result[0]).toMatchObject({
      sid: queue.body.data.sid,
      name: 'Billing',
      targetWorkers: 'skills HAS "billing" AND level >= 2',
    });
    const users = await fetch(`${again.url}/autoattendant/user/search?SortBy=email:asc`, {
      headers: { Authorization: auth },
    });
    const page = (await users.json()) as { data: { total: number; result: Array<{ emailId: string }> } };
    expect(page.data.total).toBe(2);
    expect(page.data.result.map((u) => u.emailId)).toEqual(['aa@acme.test', 'boss@acme.test']);
    const wav = await fetch(`${again.url}${uploaded.body.data.fileUri}`);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await wav.arrayBuffer()).equals(Buffer.from(writeWav(1)))).toBe(true);
    expect(await stop(again.child)).toBe(0);
  }, 60_000);
});
