import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import type { SipService } from '../../src/telephony/sip-service.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as R from '../support/sipp-register.js';
import * as S from '../support/sipp-scenarios.js';
import { type SipHarness, startSipHarness } from './harness.js';

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const APP = 'http://app.test';

describe.skipIf(skip)('clients registered over SIP', () => {
  let engine: Engine;
  let sip: SipService;
  let otherAccount = '';
  let harness: SipHarness;
  let ended: SipHarness['ended'];

  beforeAll(async () => {
    otherAccount = `AC${'f'.repeat(32)}`;
    harness = await startSipHarness({
      rtpPorts: { min: 36500, max: 36999 },
      clients: {
        clientsOf: (login) =>
          login === 'alice'
            ? [{ accountSid: harness.engine.accountSid, password: 'alice-secret' }]
            : login === 'bob'
              ? [{ accountSid: otherAccount, password: 'bob-secret' }]
              : [],
      },
    });
    ({ engine, sip, ended } = harness);
    engine.registerHandler(`${APP}/`, async () => ({
      status: 200,
      contentType: 'application/xml',
      body: '<Response><Pause length="1"/><Hangup/></Response>',
    }));
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
});
