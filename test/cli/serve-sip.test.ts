import { spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { applicationUrl, sipAddress } from '../../src/cli/commands/serve-sip.js';
import { createProgram } from '../../src/cli/program.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { decodeWav } from '../../src/telephony/audio/decode.js';
import { PCMU_OFFER } from '../support/pcmu-offer.js';
import { exitOf, startServeProcess } from '../support/serve-process.js';
import { missingTools, runSipp, SIPP_PCAPS } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as S from '../support/sipp-scenarios.js';
import { level } from '../telephony/support.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

describe('rcml serve --sip', () => {
  it("resolves a client's application to its controller on the server's base URL", async () => {
    const store = createMemoryStore();
    const account = `AC${'a'.repeat(32)}`;
    const sid = `AP${'1'.repeat(32)}`;
    await store.applications.put({
      sid,
      accountSid: account,
      friendlyName: 'ivr',
      kind: 'voice',
      voiceCallerIdLookup: false,
      rcmlUrl: `/visual-designer/services/apps/${sid}/controller`,
      apiVersion: '2012-04-24',
      dateCreated: 1,
      dateUpdated: 1,
    });
    expect(await applicationUrl(store, 'http://127.0.0.1:8080', account, sid)).toBe(
      `http://127.0.0.1:8080/visual-designer/services/apps/${sid}/controller`,
    );
    // Another account's application, an unknown one, or no base URL yet: none.
    expect(await applicationUrl(store, 'http://127.0.0.1:8080', `AC${'b'.repeat(32)}`, sid)).toBeUndefined();
    expect(
      await applicationUrl(store, 'http://127.0.0.1:8080', account, `AP${'2'.repeat(32)}`),
    ).toBeUndefined();
    expect(await applicationUrl(store, undefined, account, sid)).toBeUndefined();
  });

  it('refuses bad SIP options as usage errors, and --sip on the virtual clock', async () => {
    for (const [args, option] of [
      [['--sip', 'nowhere'], '--sip'],
      [['--sip', '127.0.0.1:99999'], '--sip'],
      [['--rtp-ports', '20000'], '--rtp-ports'],
      [['--rtp-ports', '80-90'], '--rtp-ports'],
    ] as const) {
      const program = createProgram();
      for (const command of [program, ...program.commands]) {
        command.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
      }
      const err = await program.parseAsync(['serve', ...args], { from: 'user' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CommanderError);
      expect((err as CommanderError).message).toContain(option);
    }
    // A bare port binds loopback.
    expect(sipAddress('5070')).toEqual({ host: '127.0.0.1', port: 5070 });
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', MAIN, 'serve', '--sip', '127.0.0.1:0', '--clock', 'virtual'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--sip answers real calls in real time: it needs --clock real');
  });

  it('reads its SIP options from RCML_SIP, RCML_RTP_PORTS and RCML_SIP_PUBLIC_ADDRESS, and writes the public address in Contact', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-serve-sip-env-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const serve = await startServeProcess(
      ['--data', data, '--number', '+15550100=http://127.0.0.1:9/voice'],
      {
        RCML_SIP: '127.0.0.1:0',
        RCML_RTP_PORTS: '37100-37199',
        RCML_SIP_PUBLIC_ADDRESS: '192.0.2.10',
      },
    );
    cleanups.push(async () => {
      serve.child.kill('SIGTERM');
      await exitOf(serve.child);
    });
    const started =
      /sip: listening on udp\+tcp 127\.0\.0\.1:(\d+), rtp 37100-37199, public address 192\.0\.2\.10/.exec(
        serve.out(),
      );
    expect(started, serve.out()).not.toBeNull();
    // An INVITE to the number rings; the 180's Contact names the public address.
    const socket = dgram.createSocket('udp4');
    cleanups.push(() => socket.close());
    const answers: string[] = [];
    const ringing = new Promise<string>((resolve) =>
      socket.on('message', (m) => {
        const text = m.toString('latin1');
        answers.push(text);
        if (text.startsWith('SIP/2.0 180')) resolve(text);
      }),
    );
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    const sdp = PCMU_OFFER;
    const invite = [
      'INVITE sip:15550100@127.0.0.1 SIP/2.0',
      `Via: SIP/2.0/UDP 127.0.0.1:${socket.address().port};branch=z9hG4bKenv1`,
      'From: <sip:caller@127.0.0.1>;tag=e1',
      'To: <sip:15550100@127.0.0.1>',
      'Call-ID: env1@test',
      'CSeq: 1 INVITE',
      'Max-Forwards: 70',
      'Content-Type: application/sdp',
      `Content-Length: ${sdp.length}`,
      '',
      sdp,
    ].join('\r\n');
    socket.send(invite, Number(started?.[1]), '127.0.0.1');
    expect(await ringing).toMatch(/^Contact: <sip:[^@>]*@?192\.0\.2\.10:\d+/m);
  });

  const skip = missingTools('sipp', 'espeak-ng', 'sox');

  it.skipIf(skip)(
    "answers SIPp calls to --numbers like any call (REST Calls, a Recording of the caller's audio, metrics, logs), and calls a sip: To of POST Calls over SIP",
    async () => {
      const docs: Server = createServer((req, res) => {
        res.setHeader('content-type', 'application/xml');
        if (req.url?.startsWith('/record'))
          res.end('<Response><Record maxLength="2" timeout="5" playBeep="false" action="/done"/></Response>');
        else if (req.url?.startsWith('/done')) res.end('<Response><Hangup/></Response>');
        else res.end('<Response><Say>Hi</Say><Hangup/></Response>');
      });
      await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => docs.close(resolve)));
      const data = mkdtempSync(join(tmpdir(), 'rcml-serve-sip-'));
      cleanups.push(() => rmSync(data, { recursive: true, force: true }));
      const address = docs.address();
      const docsPort = typeof address === 'object' && address ? address.port : 0;
      const serve = await startServeProcess([
        '--data',
        data,
        '--sip',
        '127.0.0.1:0',
        '--rtp-ports',
        '37000-37999',
        '--number',
        `+15550100=http://127.0.0.1:${docsPort}/voice`,
        '--number',
        `+15550101=http://127.0.0.1:${docsPort}/record`,
      ]);
      cleanups.push(async () => {
        serve.child.kill('SIGTERM');
        await exitOf(serve.child);
      });
      const sipPort = /sip: listening on udp\+tcp 127\.0\.0\.1:(\d+)/.exec(serve.out())?.[1];
      expect(sipPort).toBeDefined();
      const run = runSipp(S.scenario('serve', `${S.answered()}${S.answerBye}`), `127.0.0.1:${sipPort}`, {
        service: '15550100',
        keys: { sinkport: 9, caller: '15557777' },
      });
      // A second caller is recorded while it sends SIPp's G.711 capture.
      const recorded = runSipp(
        S.scenario(
          'recorded',
          `${S.answered({ payloads: '8' })}${S.playPcap(join(SIPP_PCAPS, 'g711a.pcap'))}${S.answerBye}`,
        ),
        `127.0.0.1:${sipPort}`,
        { service: '+15550101', keys: { sinkport: 9, caller: '15558888' } },
      );
      // A scanner's INVITE to a number nobody routes: challenged (it could be a client's call),
      // counted, no call record.
      const probe = runSipp(
        S.scenario(
          'probe',
          `${S.invite()}
  <recv response="100" optional="true"/>
  <recv response="407"/>
${S.ackRefusal}`,
        ),
        `127.0.0.1:${sipPort}`,
        { service: '15559999', keys: { sinkport: 9, caller: 'scanner' } },
      );
      for (const result of await Promise.all([run.done, recorded.done, probe.done])) {
        expect(result.code, result.messages.slice(-2000)).toBe(0);
      }
      const sid = /account sid: (AC[0-9a-f]{32})/.exec(serve.out())?.[1] as string;
      const token = /auth token: ([0-9a-f]{32})/.exec(serve.out())?.[1] as string;
      const api = `${serve.url}/platform/2012-04-24/Accounts/${sid}`;
      const res = await fetch(`${api}/Calls.json?To=%2B15550100`, {
        headers: { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` },
      });
      const body = (await res.json()) as { calls: Array<Record<string, unknown>> };
      expect(body.calls).toMatchObject([
        { from: '15557777', to: '+15550100', direction: 'inbound', status: 'completed' },
      ]);
      const inboundSid = body.calls[0].sid as string;
      // POST Calls with a sip: To sends an INVITE (X- headers of the URI on it); 486 is busy.
      const calleePort = 33000 + Math.floor(Math.random() * 1000) * 2;
      const busy = runSipp(S.scenario('busy', C.refusing('486 Busy Here')), '127.0.0.1', {
        port: calleePort,
      });
      const auth = { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
      // The REST Recordings resources serve what the caller sent: 2 s of its real audio.
      let listed: { recordings: Array<{ sid: string; duration: string }> } = { recordings: [] };
      for (let i = 0; i < 50 && listed.recordings.length === 0; i++) {
        listed = (await (await fetch(`${api}/Recordings.json`, { headers: auth })).json()) as typeof listed;
      }
      expect(listed.recordings).toHaveLength(1);
      const media = await fetch(`${api}/Recordings/${listed.recordings[0].sid}.wav`, { headers: auth });
      expect(media.headers.get('content-type')).toMatch(/audio\/(x-)?wav/);
      const pcm = decodeWav(new Uint8Array(await media.arrayBuffer()));
      expect(pcm.length).toBe(16000);
      expect(level(pcm)).toBeGreaterThan(100);
      // Metrics and logs count SIP calls like any other.
      const metrics = await (await fetch(`${serve.url}/metrics`)).text();
      expect(metrics).toMatch(/rcml_calls_ended_total\{status="completed",direction="inbound"\} 2/);
      expect(metrics).toMatch(/rcml_sip_refused_total\{reason="challenged"\} 1/);
      expect(metrics).not.toMatch(/rcml_calls_ended_total\{status="failed"/);
      expect(serve.err()).toMatch(new RegExp(`"callSid":"${inboundSid}".*"msg":"call ended"`));
      const created = await fetch(`${serve.url}/platform/2012-04-24/Accounts/${sid}/Calls.json`, {
        method: 'POST',
        headers: auth,
        body: new URLSearchParams({
          From: '+15551111',
          To: `sip:bob@127.0.0.1:${calleePort}?X-Order=7`,
          Url: `http://127.0.0.1:${docsPort}/voice`,
        }),
      });
      expect(created.status).toBe(200);
      const callSid = ((await created.json()) as { sid: string }).sid;
      const refused = await busy.done;
      expect(refused.code, refused.messages.slice(-2000)).toBe(0);
      expect(refused.messages).toMatch(/^INVITE sip:bob@127\.0\.0\.1:\d+ SIP\/2\.0/m);
      expect(refused.messages).toContain('X-Order: 7');
      // The engine writes the status just after it acknowledged the 486.
      let status = '';
      for (let i = 0; i < 50 && status !== 'busy'; i++) {
        const res2 = await fetch(`${serve.url}/platform/2012-04-24/Accounts/${sid}/Calls/${callSid}.json`, {
          headers: auth,
        });
        status = ((await res2.json()) as { status: string }).status;
      }
      expect(status).toBe('busy');
    },
  );
});
