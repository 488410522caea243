import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as R from '../support/sipp-register.js';
import * as S from '../support/sipp-scenarios.js';
import * as T from '../support/sipp-trunk.js';
import { type SipHarness, startSipHarness } from './harness.js';
import { rtpSink } from './support.js';

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const APP = 'http://app.test';
const TRUNK_PORT = 33000 + Math.floor(Math.random() * 500) * 2;

describe.skipIf(skip)('calls through a SIP trunk, and the egress policy on answers', () => {
  let engine: Engine;
  let harness: SipHarness;
  let ended: SipHarness['ended'];

  beforeAll(async () => {
    harness = await startSipHarness({
      rtpPorts: { min: 36000, max: 36999 },
      trunk: { uri: `sip:127.0.0.1:${TRUNK_PORT}`, username: 'acme', password: 'trunk-secret' },
      egress: { denyPrivateNetworks: true, allow: ['127.0.0.1'] },
      // erin's softphone calls run her voice URL, which dials what she dialed.
      clients: {
        clientsOf: (login) =>
          login === 'erin'
            ? [
                {
                  accountSid: harness.engine.accountSid,
                  password: 'erin-secret',
                  voice: { url: `${APP}/client` },
                },
              ]
            : [],
      },
      clientDialOut: ['+1'],
    });
    ({ engine, ended } = harness);
    engine.registerHandler(`${APP}/`, async (req) => ({
      status: 200,
      contentType: 'application/xml',
      body: req.url.endsWith('/client')
        ? `<Response><Dial timeout="2">${req.params.To}</Dial><Hangup/></Response>`
        : '<Response><Pause length="1"/><Hangup/></Response>',
    }));
  });

  afterAll(() => harness?.close());

  it('answers the 401 with digest credentials (same Call-ID, next CSeq) and the call is answered', async () => {
    const sink = await rtpSink();
    const trunk = runSipp(S.scenario('trunk', T.challengingThenAnswering()), '127.0.0.1', {
      port: TRUNK_PORT,
      keys: { sinkport: sink.port, user: 'acme', password: 'trunk-secret' },
      extra: ['-timeout', '10s'],
    });
    const call = engine.createCall({ From: '+15551111', To: '+15557654321', Url: `${APP}/pause` });
    const run = await trunk.done;
    sink.close();
    expect(run.code, run.messages).toBe(0);
    const invites = run.messages.split(/^(?=INVITE sip:)/m).filter((b) => b.startsWith('INVITE'));
    expect(invites).toHaveLength(2);
    expect(invites[0]).toMatch(/^INVITE sip:\+15557654321@127\.0\.0\.1:\d+ SIP\/2\.0/);
    expect(invites[0]).not.toMatch(/^Authorization:/im);
    expect(invites[1]).toMatch(
      /^Authorization: Digest username="acme", realm="trunk.test".*qop=auth, nc=00000001/m,
    );
    const callIds = invites.map((b) => /^Call-ID: (.*)$/m.exec(b)?.[1]);
    expect(callIds[1]).toBe(callIds[0]);
    expect(invites.map((b) => /^CSeq: (\d+) INVITE/m.exec(b)?.[1])).toEqual(['1', '2']);
    expect((await ended(call.sid)).status).toBe('completed');
  }, 15_000);

  it('fails the call when the trunk challenges the credentials again', async () => {
    const trunk = runSipp(S.scenario('trunk-refusing', T.challengingTwice()), '127.0.0.1', {
      port: TRUNK_PORT,
      extra: ['-timeout', '10s'],
    });
    const call = engine.createCall({ From: '+15551111', To: '5557654321', Url: `${APP}/pause` });
    const run = await trunk.done;
    expect(run.code, run.messages).toBe(0);
    expect((await ended(call.sid)).status).toBe('failed');
  }, 15_000);

  it('hangs up (BYE where the INVITE went) an answer whose RTP address or Contact the egress policy refuses', async () => {
    const answer = C.answering();
    const privateMedia = answer.replace('c=IN IP4 [local_ip]', 'c=IN IP4 10.0.0.1');
    const privateContact = answer.replaceAll(
      'Contact: <sip:[local_ip]:[local_port];transport=[transport]>',
      'Contact: <sip:callee@10.0.0.2:5060>',
    );
    expect(privateMedia).not.toBe(answer);
    expect(privateContact).not.toBe(answer);
    const media = callee('private-media', privateMedia);
    const contact = callee('private-contact', privateContact);
    const first = engine.createCall({
      From: '+15551111',
      To: `sip:a@127.0.0.1:${media.port}`,
      Url: `${APP}/p`,
    });
    const second = engine.createCall({
      From: '+15551111',
      To: `sip:b@127.0.0.1:${contact.port}`,
      Url: `${APP}/p`,
    });
    const runs = await Promise.all([media.done, contact.done]);
    for (const run of runs) {
      expect(run.code, run.messages).toBe(0);
      expect(run.messages).toMatch(/^BYE sip:/m);
    }
    expect((await ended(first.sid)).status).toBe('failed');
    expect((await ended(second.sid)).status).toBe('failed');
  }, 15_000);

  it("keeps a registered client's own call off the trunk but for the prefixes allowed (+1 here)", async () => {
    const trunk = dgram.createSocket('udp4');
    const dialed: string[] = [];
    // A trunk that is busy for every number it is asked for.
    trunk.on('message', (data, from) => {
      const text = data.toString('latin1');
      const m = /^INVITE sip:([^@]+)@/.exec(text);
      if (!m) return;
      if (!dialed.includes(m[1])) dialed.push(m[1]);
      const copied = text
        .split('\r\n')
        .filter((line) => /^(via|from|to|call-id|cseq):/i.test(line))
        .map((line) => (/^to:/i.test(line) ? `${line};tag=busy` : line));
      const busy = ['SIP/2.0 486 Busy Here', ...copied, 'Content-Length: 0', '', ''].join('\r\n');
      trunk.send(busy, from.port, from.address);
    });
    await new Promise<void>((resolve) => trunk.bind(TRUNK_PORT, '127.0.0.1', resolve));
    try {
      for (const to of ['+442079460000', '+15557654321']) {
        const run = await runSipp(R.clientCall('erin', 'erin-secret'), `127.0.0.1:${harness.sip.port}`, {
          service: to,
          keys: { sinkport: 9, caller: 'erin' },
          extra: ['-timeout', '15s'],
        }).done;
        expect(run.code, run.messages).toBe(0);
      }
    } finally {
      trunk.close();
    }
    expect(dialed).toEqual(['+15557654321']);
  }, 40_000);
});

/** A SIPp callee on a port of its own. */
function callee(name: string, body: string) {
  const port = 33600 + Math.floor(Math.random() * 400) * 2;
  return {
    port,
    done: runSipp(S.scenario(name, body), '127.0.0.1', {
      port,
      keys: { sinkport: 9 },
      extra: ['-timeout', '10s'],
    }).done,
  };
}
