/**
 * Clients through `rcml serve --sip`: a client created over REST registers at once with its
 * login and password (SIPp, digest), a call of `POST Calls To=client:<login>` reaches the
 * Contact it registered; once the client is deleted over REST, calls to it fail. A call the
 * client places runs its voice URL, signed with its account's signing key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateRequest } from '../../src/engine/signature.js';
import { exitOf, startServeProcess } from '../support/serve-process.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as R from '../support/sipp-register.js';
import * as S from '../support/sipp-scenarios.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A webhook the documents server received. */
interface Received {
  url: string;
  signature: string;
  params: Record<string, string>;
}

/** `rcml serve --sip` on a fresh data directory, and a documents server answering `<Hangup/>`. */
async function startWithDocuments() {
  const received: Received[] = [];
  const docs: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      received.push({
        url: `http://${req.headers.host}${req.url}`,
        signature: String(req.headers['x-twilio-signature'] ?? ''),
        params: Object.fromEntries(new URLSearchParams(body)),
      });
      res.setHeader('content-type', 'application/xml');
      res.end('<Response><Hangup/></Response>');
    });
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => docs.close(resolve)));
  const address = docs.address();
  const docsUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const data = mkdtempSync(join(tmpdir(), 'rcml-serve-clients-'));
  cleanups.push(() => rmSync(data, { recursive: true, force: true }));
  const serve = await startServeProcess([
    '--data',
    data,
    '--sip',
    '127.0.0.1:0',
    '--rtp-ports',
    '36000-36099',
  ]);
  cleanups.push(async () => {
    serve.child.kill('SIGTERM');
    await exitOf(serve.child);
  });
  const sipPort = /sip: listening on udp\+tcp 127\.0\.0\.1:(\d+)/.exec(serve.out())?.[1];
  const sid = /account sid: (AC[0-9a-f]{32})/.exec(serve.out())?.[1] as string;
  const token = /auth token: ([0-9a-f]{32})/.exec(serve.out())?.[1] as string;
  const signingKey = /signing key: ([0-9a-f]{32})/.exec(serve.out())?.[1] as string;
  const root = `${serve.url}/platform/2012-04-24/Accounts/${sid}`;
  const auth = { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${root}${path}`, { method: 'POST', headers: auth, body: new URLSearchParams(fields) });
  return { received, docsUrl, sipPort, sid, signingKey, root, auth, post, url: serve.url };
}

describe.skipIf(missingTools('sipp'))('rcml serve --sip with clients', () => {
  it('registers a client created over REST and calls it as client:<login>; a deleted one is not called', async () => {
    const { docsUrl, sipPort, root, auth, post } = await startWithDocuments();
    const voice = `${docsUrl}/voice`;
    const created = await post('/Clients.json', { Login: 'alice', Password: 'alice-secret' });
    expect(created.status).toBe(200);
    // Not registered yet: the registration fields are empty.
    const createdBody = (await created.clone().json()) as Record<string, string>;
    expect([createdBody.registered_contact, createdBody.registered_source]).toEqual(['', '']);
    const clientSid = ((await created.json()) as { sid: string; registered_contact: string }).sid;

    const phonePort = 35000 + Math.floor(Math.random() * 400) * 2;
    const phone = runSipp(S.scenario('phone', C.answering()), '127.0.0.1', {
      port: phonePort,
      keys: { sinkport: 9 },
      extra: ['-timeout', '10s'],
    });
    const registered = await Promise.all(
      [
        ['alice', 'alice-secret', 200],
        ['alice', 'wrong-secret', 403],
      ].map(
        ([user, password, final]) =>
          runSipp(
            S.scenario('register', R.registering(user as string, password as string, final as number)),
            `127.0.0.1:${sipPort}`,
            { keys: { contactport: phonePort }, extra: ['-timeout', '5s'] },
          ).done,
      ),
    );
    for (const run of registered) expect(run.code, run.messages).toBe(0);
    // The Clients resource shows where she is registered, and from where (an extension).
    const shown = (await (
      await fetch(`${root}/Clients/${clientSid}.json`, { headers: auth })
    ).json()) as Record<string, string>;
    expect(shown.registered_contact).toBe(`sip:alice@127.0.0.1:${phonePort}`);
    expect(shown.registered_source).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(shown.registered_since).toMatch(/^\w{3}, \d{2} \w{3} \d{4} [\d:]{8} \+0000$/);
    expect(shown.registration_expires).not.toBe('');
    const call = await post('/Calls.json', { From: '+15551111', To: 'client:alice', Url: voice });
    expect(call.status).toBe(200);
    const answered = await phone.done;
    expect(answered.code, answered.messages.slice(-2000)).toBe(0);
    expect(answered.messages).toMatch(
      new RegExp(`^INVITE sip:alice@127\\.0\\.0\\.1:${phonePort} SIP/2\\.0`, 'm'),
    );

    // Deleted over REST: its binding no longer reaches it, and it cannot register again.
    expect(
      (await fetch(`${root}/Clients/${clientSid}.json`, { method: 'DELETE', headers: auth })).status,
    ).toBe(204);
    const again = await runSipp(
      S.scenario('register', R.registering('alice', 'alice-secret', 403)),
      `127.0.0.1:${sipPort}`,
      { keys: { contactport: phonePort }, extra: ['-timeout', '5s'] },
    ).done;
    expect(again.code, again.messages).toBe(0);
    const failed = (
      (await (await post('/Calls.json', { From: '+15551111', To: 'client:alice', Url: voice })).json()) as {
        sid: string;
      }
    ).sid;
    let status = '';
    for (let i = 0; i < 50 && status !== 'failed'; i++) {
      const res = await fetch(`${root}/Calls/${failed}.json`, { headers: auth });
      status = ((await res.json()) as { status: string }).status;
    }
    expect(status).toBe('failed');
  }, 30_000);

  it("runs a client's call by the voice URL created over REST, for its account, signed with the account's key; a first verb Hangup answers, then hangs up", async () => {
    const { received, docsUrl, sipPort, sid, signingKey, post } = await startWithDocuments();
    const created = await post('/Clients.json', {
      Login: 'alice',
      Password: 'alice-secret',
      VoiceUrl: `${docsUrl}/client-voice`,
    });
    expect(created.status).toBe(200);
    const run = await runSipp(R.clientCall('alice', 'alice-secret'), `127.0.0.1:${sipPort}`, {
      service: '+15559999',
      keys: { sinkport: 9, caller: 'alice' },
      extra: ['-timeout', '10s'],
    }).done;
    expect(run.code, run.messages.slice(-3000)).toBe(0);
    expect(run.messages).toMatch(/^SIP\/2\.0 407 Proxy Authentication Required/m);
    expect(received).toHaveLength(1);
    const [hook] = received;
    expect(hook.url).toBe(`${docsUrl}/client-voice`);
    expect(hook.params).toMatchObject({
      From: 'client:alice',
      To: '+15559999',
      Direction: 'inbound',
      AccountSid: sid,
    });
    expect(validateRequest(signingKey, hook.signature, hook.url, hook.params)).toBe(true);
  }, 30_000);

  it("runs a client's call by its VoiceApplicationSid, a Visual Designer project of the account, before its VoiceUrl", async () => {
    const { received, docsUrl, sipPort, root, auth, post, url } = await startWithDocuments();
    const project = await fetch(
      `${url}/visual-designer/services/projects?name=desk&template=TL00000000000000000000000000000001`,
      { method: 'POST', headers: auth },
    );
    expect(project.status).toBe(200);
    const application = ((await project.json()) as { sid: string }).sid;
    const created = await post('/Clients.json', {
      Login: 'bob',
      Password: 'bob-secret-1',
      VoiceUrl: `${docsUrl}/not-this`,
      VoiceApplicationSid: application,
    });
    expect(created.status).toBe(200);
    // The caller hangs up once answered: the project's menu is answering, not a 404 for the
    // unrouted number, and the documents server is never asked.
    const run = await runSipp(
      S.scenario(
        'client-app-call',
        `${R.challengedInvite('bob', 'bob-secret-1')}
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
${S.ack2xx(2)}
${S.pause(300)}
${S.sendBye(3)}`,
      ),
      `127.0.0.1:${sipPort}`,
      { service: '+15559999', keys: { sinkport: 9, caller: 'bob' }, extra: ['-timeout', '10s'] },
    ).done;
    expect(run.code, run.messages.slice(-3000)).toBe(0);
    expect(received).toEqual([]);
    const list = (await (await fetch(`${root}/Calls.json?From=client:bob`, { headers: auth })).json()) as {
      calls: Array<{ from: string; to: string; direction: string }>;
    };
    expect(list.calls).toMatchObject([{ from: 'client:bob', to: '+15559999', direction: 'inbound' }]);
  }, 30_000);
});
