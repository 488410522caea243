import { join } from 'node:path';
import alawmulaw from 'alawmulaw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import type { SipService } from '../../src/telephony/sip-service.js';
import { missingTools, runSipp, SIPP_PCAPS } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as S from '../support/sipp-scenarios.js';
import { type SipHarness, startSipHarness } from './harness.js';
import { level, rtpSink } from './support.js';

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const APP = 'http://app.test';

/** A SIPp callee on a port of its own; resolves when its scenario is over. */
function callee(name: string, body: string, keys: Record<string, number> = {}) {
  const port = 31000 + Math.floor(Math.random() * 2000) * 2;
  const run = runSipp(S.scenario(name, body), '127.0.0.1', { port, keys, extra: ['-timeout', '12s'] });
  return { port, done: run.done };
}

describe.skipIf(skip)('outgoing SIP calls', () => {
  let engine: Engine;
  let sip: SipService;
  let bridgedPort = 0;
  let forkPorts = [0, 0];
  let harness: SipHarness;
  let ended: SipHarness['ended'];

  beforeAll(async () => {
    harness = await startSipHarness({ rtpPorts: { min: 35000, max: 35999 } });
    ({ engine, sip, ended } = harness);
    engine.registerHandler(`${APP}/`, async (req) => ({
      status: 200,
      contentType: 'application/xml',
      body: req.url.endsWith('/dial')
        ? `<Response><Dial timeout="5"><Sip>sip:alice@127.0.0.1:${bridgedPort}</Sip></Dial></Response>`
        : req.url.endsWith('/fork')
          ? `<Response><Dial timeout="5"><Sip>sip:alice@127.0.0.1:${forkPorts[0]}</Sip><Sip>sip:bob@127.0.0.1:${forkPorts[1]}</Sip></Dial></Response>`
          : req.url.endsWith('/hold')
            ? '<Response><Hold/><Pause length="1"/><Resume/><Pause length="1"/><Hangup/></Response>'
            : '<Response><Say>Hello from the engine</Say><Hangup/></Response>',
    }));
    engine.setNumber('+15550200', { voiceUrl: `${APP}/dial` });
    engine.setNumber('+15550201', { voiceUrl: `${APP}/hold` });
    engine.setNumber('+15550202', { voiceUrl: `${APP}/fork` });
  });

  afterAll(() => harness?.close());

  it('calls sip: targets: answered with the X- headers of the To URI (the callee hears the Say, then a BYE), busy on 486, no-answer with a CANCEL', async () => {
    const sink = await rtpSink();
    const answering = callee('answering', C.answering(), { sinkport: sink.port });
    const busy = callee('busy', C.refusing('486 Busy Here'));
    const silent = callee('silent', C.ringingUntilCancel);
    const answered = engine.createCall({
      From: '+15551111',
      To: `sip:alice@127.0.0.1:${answering.port}?X-Customer=gold&X-Ticket=42`,
      Url: `${APP}/hello`,
    });
    const refused = engine.createCall({
      From: '+15551111',
      To: `sip:bob@127.0.0.1:${busy.port}`,
      Url: `${APP}/hello`,
    });
    const unanswered = engine.createCall({
      From: '+15551111',
      To: `sip:carol@127.0.0.1:${silent.port}`,
      Url: `${APP}/hello`,
      Timeout: 1,
    });
    const [a, b, c] = await Promise.all([answering.done, busy.done, silent.done]);
    sink.close();
    expect(a.code, a.messages).toBe(0);
    expect(b.code, b.messages).toBe(0);
    expect(c.code, c.messages).toBe(0);
    expect(a.messages).toMatch(/^INVITE sip:alice@127\.0\.0\.1:\d+ SIP\/2\.0/m);
    expect(a.messages).toContain('X-Customer: gold');
    expect(a.messages).toContain('X-Ticket: 42');
    expect(a.messages).toMatch(/^From: <sip:\+15551111@/m);
    expect(a.messages).toMatch(/^ACK sip:/m);
    expect(a.messages).toMatch(/^BYE sip:/m);
    expect(b.messages).toMatch(/^ACK sip:bob@/m);
    expect(c.messages).toMatch(/^CANCEL sip:carol@/m);
    expect((await ended(answered.sid)).status).toBe('completed');
    expect((await ended(refused.sid)).status).toBe('busy');
    expect((await ended(unanswered.sid)).status).toBe('no-answer');
    // The callee heard speech (PCMU), not only silence.
    const pcm = alawmulaw.mulaw.decode(new Uint8Array(sink.payloads()));
    expect(pcm.length).toBeGreaterThan(8000 * 0.5);
    expect(level(pcm)).toBeGreaterThan(100);
  }, 20_000);

  it('bridges a SIP caller and a Dial Sip leg in the media worker: each hears the other, in one RTP stream, until the caller hangs up', async () => {
    const callerEar = await rtpSink();
    const calleeEar = await rtpSink();
    const capture = S.playPcap(join(SIPP_PCAPS, 'g711a.pcap'));
    const bridged = callee('bridged', C.answering({ payload: '8', afterAck: capture }), {
      sinkport: calleeEar.port,
    });
    bridgedPort = bridged.port;
    const caller = runSipp(
      S.scenario(
        'caller',
        `${S.answered({ payloads: '8 101' })}${S.pause(300)}${capture}${S.pause(5200)}${S.sendBye()}`,
      ),
      `127.0.0.1:${sip.port}`,
      { service: '+15550200', keys: { sinkport: callerEar.port, caller: '15553333' } },
    );
    const [from, to] = await Promise.all([caller.done, bridged.done]);
    callerEar.close();
    calleeEar.close();
    expect(from.code, from.messages).toBe(0);
    expect(to.code, to.messages).toBe(0);
    // Each side heard the other's G.711 capture, relayed (A-law both ways).
    for (const ear of [callerEar, calleeEar]) {
      const pcm = alawmulaw.alaw.decode(new Uint8Array(ear.payloads()));
      expect(pcm.length).toBeGreaterThan(8000 * 3);
      expect(level(pcm)).toBeGreaterThan(100);
      // One stream: one SSRC, sequence numbers one after the other.
      expect(ear.ssrcs().size).toBe(1);
      expect(ear.sequenceJumps()).toBe(0);
    }
  }, 20_000);

  it('puts a SIP caller on hold and back with re-INVITEs of ours (sendonly, then sendrecv)', async () => {
    const ear = await rtpSink();
    const caller = runSipp(
      S.scenario(
        'held',
        `${S.answered()}${C.takeReinvite('sendonly', 'recvonly')}${C.takeReinvite('sendrecv', 'sendrecv')}${S.answerBye}`,
      ),
      `127.0.0.1:${sip.port}`,
      { service: '+15550201', keys: { sinkport: ear.port, caller: '15554444' } },
    );
    const run = await caller.done;
    ear.close();
    expect(run.code, run.messages).toBe(0);
    // The engine's INVITEs (its User-Agent), in order, and the direction each offered.
    const ours = run.messages
      .split(/^(?=INVITE sip:)/m)
      .filter((block) => block.startsWith('INVITE') && /^User-Agent: rcml-engine/m.test(block));
    expect(ours.map((block) => /a=(sendonly|sendrecv|recvonly|inactive)/.exec(block)?.[1])).toEqual([
      'sendonly',
      'sendrecv',
    ]);
  }, 20_000);

  it('forks a Dial to two sip: addresses: the one that answers is bridged, the other gets a CANCEL', async () => {
    const winner = callee('winner', C.answering(), { sinkport: 9 });
    const loser = callee('loser', C.ringingUntilCancel);
    forkPorts = [winner.port, loser.port];
    const caller = runSipp(
      S.scenario('forking', `${S.answered()}${S.pause(500)}${S.sendBye()}`),
      `127.0.0.1:${sip.port}`,
      { service: '+15550202', keys: { sinkport: 9, caller: '15555555' } },
    );
    const [from, won, lost] = await Promise.all([caller.done, winner.done, loser.done]);
    expect(from.code, from.messages).toBe(0);
    expect(won.code, won.messages).toBe(0);
    expect(lost.code, lost.messages).toBe(0);
    expect(lost.messages).toMatch(/^CANCEL sip:bob@/m);
  }, 20_000);

  it('refuses a sip: target the egress policy forbids: the call fails with a warning naming it', async () => {
    const warnings: string[] = [];
    const guardedHarness = await startSipHarness({
      rtpPorts: { min: 36000, max: 36999 },
      egress: { denyPrivateNetworks: true },
      onWarning: (message, detail) => warnings.push(`${message}: ${String(detail.err)}`),
    });
    const guarded = guardedHarness.engine;
    try {
      const failed = new Promise<string>((resolve) => {
        const call = guarded.createCall({
          From: '+15551111',
          To: 'sip:eve@127.0.0.1:9',
          Url: `${APP}/hello`,
        });
        const unwatch = guarded.liveCall(call.sid).watch((c) => {
          if (c.ended) {
            unwatch();
            resolve(c.record.status);
          }
        });
      });
      expect(await failed).toBe('failed');
      expect(warnings.join('\n')).toContain('refused by the egress policy');
    } finally {
      await guardedHarness.close();
    }
  });
});
