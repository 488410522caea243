import alawmulaw from 'alawmulaw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import type { SipService } from '../../src/telephony/sip-service.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as R from '../support/sipp-register.js';
import * as S from '../support/sipp-scenarios.js';
import { type SipHarness, startSipHarness } from './harness.js';
import { level, rtpSink } from './support.js';

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const APP = 'http://app.test';

describe.skipIf(skip)('clients registered over SIP', () => {
  let engine: Engine;
  let sip: SipService;
  let otherAccount = '';
  let harness: SipHarness;
  let ended: SipHarness['ended'];
  const requests: Array<{ path: string; params: Record<string, string> }> = [];

  beforeAll(async () => {
    otherAccount = `AC${'f'.repeat(32)}`;
    harness = await startSipHarness({
      rtpPorts: { min: 36500, max: 36999 },
      // alice and erin have a voice URL (the calls they place run it); bob has none.
      clients: {
        clientsOf: (login) =>
          login === 'alice'
            ? [
                {
                  accountSid: harness.engine.accountSid,
                  password: 'alice-secret',
                  voice: { url: `${APP}/client`, method: 'POST' },
                },
              ]
            : login === 'bob'
              ? [{ accountSid: otherAccount, password: 'bob-secret' }]
              : login === 'erin'
                ? [{ accountSid: otherAccount, password: 'erin-secret', voice: { url: `${APP}/client` } }]
                : [],
      },
    });
    ({ engine, sip, ended } = harness);
    engine.registerHandler(`${APP}/`, async (req) => {
      const path = new URL(req.url).pathname;
      requests.push({ path, params: req.params });
      return {
        status: 200,
        contentType: 'application/xml',
        body:
          path === '/client' || path === '/number'
            ? '<Response><Say>Hello from the engine</Say><Hangup/></Response>'
            : '<Response><Pause length="1"/><Hangup/></Response>',
      };
    });
    engine.setNumber('+15550100', { voiceUrl: `${APP}/number` });
  });

  afterAll(() => harness?.close());

  it('calls client:alice at the Contact she registered; bob (another account) and carol (unregistered) fail', async () => {
    const phonePort = 34000 + Math.floor(Math.random() * 400) * 2;
    const phone = runSipp(S.scenario('phone', C.answering()), '127.0.0.1', {
      port: phonePort,
      keys: { sinkport: 9 },
      extra: ['-timeout', '10s'],
    });
    const registrations = await Promise.all(
      [
        ['alice', 'alice-secret', 200],
        ['bob', 'bob-secret', 200],
        ['alice', 'wrong', 403],
      ].map(
        ([user, password, final]) =>
          runSipp(
            S.scenario('register', R.registering(user as string, password as string, final as number)),
            `127.0.0.1:${sip.port}`,
            {
              keys: { contactport: phonePort },
              extra: ['-timeout', '5s'],
            },
          ).done,
      ),
    );
    for (const run of registrations) expect(run.code, run.messages).toBe(0);
    // The refused attempt left alice's binding alone.
    const alice = engine.createCall({ From: '+15551111', To: 'client:alice', Url: `${APP}/pause` });
    const bob = engine.createCall({ From: '+15551111', To: 'client:bob', Url: `${APP}/pause` });
    const carol = engine.createCall({ From: '+15551111', To: 'client:carol', Url: `${APP}/pause` });
    const run = await phone.done;
    expect(run.code, run.messages).toBe(0);
    expect(run.messages).toMatch(new RegExp(`^INVITE sip:alice@127\\.0\\.0\\.1:${phonePort} SIP/2\\.0`, 'm'));
    expect((await ended(alice.sid)).status).toBe('completed');
    expect((await ended(bob.sid)).status).toBe('failed');
    expect((await ended(carol.sid)).status).toBe('failed');
  }, 20_000);

  it('removes a binding registered with Expires 0', async () => {
    const run = await runSipp(
      S.scenario('unregister', R.registering('alice', 'alice-secret', 200, 0)),
      `127.0.0.1:${sip.port}`,
      {
        keys: { contactport: 9 },
        extra: ['-timeout', '5s'],
      },
    ).done;
    expect(run.code, run.messages).toBe(0);
    const call = engine.createCall({ From: '+15551111', To: 'client:alice', Url: `${APP}/pause` });
    expect((await ended(call.sid)).status).toBe('failed');
  }, 10_000);

  it("runs a client's call by its voice URL once its INVITE answers the 407 challenge", async () => {
    const sink = await rtpSink();
    const run = await runSipp(R.clientCall('erin', 'erin-secret'), `127.0.0.1:${sip.port}`, {
      service: 'bob',
      keys: { sinkport: sink.port, caller: 'erin' },
      extra: ['-timeout', '10s'],
    }).done;
    sink.close();
    expect(run.code, run.messages).toBe(0);
    expect(run.messages).toMatch(/^Proxy-Authenticate: Digest realm="127\.0\.0\.1", nonce="[0-9a-f]{32}"/im);
    expect(run.messages).toMatch(/^Proxy-Authorization: Digest username="erin"/im);
    const fetched = requests.filter((r) => r.params.From === 'client:erin');
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatchObject({
      path: '/client',
      params: { To: 'bob', Direction: 'inbound', AccountSid: otherAccount, CallStatus: 'ringing' },
    });
    const call = await ended(fetched[0].params.CallSid);
    expect(call).toMatchObject({
      status: 'completed',
      accountSid: otherAccount,
      from: 'client:erin',
      to: 'bob',
    });
    expect(call.phoneNumberSid).toBeUndefined();
    // The document's Say was heard on the softphone's media.
    expect(level(alawmulaw.mulaw.decode(sink.payloads()))).toBeGreaterThan(100);
  }, 20_000);

  it("refuses a client's INVITE with a wrong password and an unknown login's alike (407, then 403), fetching nothing", async () => {
    const before = requests.length;
    const runs = await Promise.all(
      ['alice', 'mallory'].map(
        (caller) =>
          runSipp(
            S.scenario(
              'client-call-403',
              `${R.challengedInvite(caller, 'wrong')}
  <recv response="403"/>
${S.ackRefusalOf(2)}`,
            ),
            `127.0.0.1:${sip.port}`,
            { service: 'bob', keys: { sinkport: 9, caller }, extra: ['-timeout', '5s'] },
          ).done,
      ),
    );
    for (const run of runs) {
      expect(run.code, run.messages).toBe(0);
      expect(run.messages).toMatch(/^SIP\/2\.0 403 Forbidden/m);
    }
    expect(requests.length).toBe(before);
  }, 10_000);

  it('routes INVITEs to a routed number by number, unchallenged, whoever the From names; none reads as a client', async () => {
    const runs = await Promise.all(
      ['zed', 'bob', 'alice', 'client%3Aalice'].map(
        (caller) =>
          runSipp(S.scenario('number-call', `${S.answered()}${S.answerBye}`), `127.0.0.1:${sip.port}`, {
            service: '15550100',
            keys: { sinkport: 9, caller },
            extra: ['-timeout', '10s'],
          }).done,
      ),
    );
    for (const run of runs) {
      expect(run.code, run.messages).toBe(0);
      expect(run.messages).not.toMatch(/SIP\/2\.0 407/);
    }
    const fetched = requests.filter((r) => r.path === '/number').map((r) => [r.params.From, r.params.To]);
    // Only an authenticated client's call carries client:; a From user that would read as one stays escaped.
    expect(fetched.sort()).toEqual([
      ['alice', '+15550100'],
      ['bob', '+15550100'],
      ['client%3Aalice', '+15550100'],
      ['zed', '+15550100'],
    ]);
  }, 20_000);
});
