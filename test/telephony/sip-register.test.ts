/**
 * Clients on loopback: a SIPp softphone REGISTERs with digest credentials, then `client:`
 * calls reach the Contact it registered (a second SIPp answering there); an unregistered
 * client, or one of another account, fails the call; a wrong password is refused 403.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { CallRecord } from '../../src/engine/records.js';
import { deferredTelephony } from '../../src/telephony/deferred-telephony.js';
import { type SipService, startSipService } from '../../src/telephony/sip-service.js';
import { createEspeakTts } from '../../src/telephony/tts/espeak.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as R from '../support/sipp-register.js';
import * as S from '../support/sipp-scenarios.js';

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const APP = 'http://app.test';

describe.skipIf(skip)('clients registered over SIP', () => {
  let engine: Engine;
  let sip: SipService;
  let otherAccount = '';
  const finals = new Map<string, Readonly<CallRecord>>();
  const waiting = new Map<string, (call: Readonly<CallRecord>) => void>();
  const tts = createEspeakTts({ cacheDir: mkdtempSync(join(tmpdir(), 'rcml-tts-test-')) });

  beforeAll(async () => {
    const late = deferredTelephony();
    engine = createEngine({
      clock: 'real',
      telephony: late.factory,
      sink: {
        call: (c) => {
          if (!c.endTime) return;
          finals.set(c.sid, { ...c });
          waiting.get(c.sid)?.(finals.get(c.sid) as CallRecord);
        },
      },
    });
    engine.registerHandler(`${APP}/`, async () => ({
      status: 200,
      contentType: 'application/xml',
      body: '<Response><Pause length="1"/><Hangup/></Response>',
    }));
    const accountSid = engine.accountSid;
    otherAccount = `AC${'f'.repeat(32)}`;
    sip = await startSipService({
      calls: engine,
      port: 0,
      rtpPorts: { min: 36500, max: 36999 },
      tts,
      clients: {
        clientsOf: (login) =>
          login === 'alice'
            ? [{ accountSid, password: 'alice-secret' }]
            : login === 'bob'
              ? [{ accountSid: otherAccount, password: 'bob-secret' }]
              : [],
      },
    });
    late.use((simulated) => sip.telephony(simulated));
  });

  afterAll(async () => {
    await sip?.close();
    await engine?.close();
  });

  const ended = (sid: string): Promise<Readonly<CallRecord>> => {
    const call = finals.get(sid);
    return call ? Promise.resolve(call) : new Promise((resolve) => waiting.set(sid, resolve));
  };

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
