/**
 * Real SIP calls on loopback: SIPp calls the engine's SIP service, hears its audio through an
 * RTP sink, presses RFC 2833 keys and plays G.711 audio from the captures of its Debian package.
 * Calls of one test run side by side (they run in real time).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import alawmulaw from 'alawmulaw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { CallRecord, RecordingRecord } from '../../src/engine/records.js';
import { decodeWav, encodeWav } from '../../src/telephony/audio/decode.js';
import { type SipService, startSipService } from '../../src/telephony/sip-service.js';
import { createEspeakTts } from '../../src/telephony/tts/espeak.js';
import { missingTools, runSipp, SIPP_PCAPS } from '../support/sip-tools.js';
import * as S from '../support/sipp-scenarios.js';
import { level, pcapPayloads, rtpSink } from './support.js';

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const noBaresip = skip ?? missingTools('baresip');

const APP = 'http://app.test';
/** 0.3 s of a 16 kHz tone: the Play file, resampled to 8 kHz on the call. */
const toneWav = (() => {
  const w = new wavefile.WaveFile();
  w.fromScratch(
    1,
    16000,
    '16',
    Array.from({ length: 4800 }, (_, i) => Math.round(9000 * Math.sin((2 * Math.PI * 500 * i) / 16000))),
  );
  return w.toBuffer();
})();
/** A Gather prompt of several seconds, for a key to cut short. */
const LONG_PROMPT =
  'For sales, press one. For support, press two. For billing, press three. To hear these options again, stay on the line.';
const doc = (body: string) => ({
  status: 200,
  contentType: 'application/xml',
  body: `<Response>${body}</Response>`,
});

describe.skipIf(skip)('inbound SIP calls', () => {
  let engine: Engine;
  let sip: SipService;
  const tts = createEspeakTts({ cacheDir: mkdtempSync(join(tmpdir(), 'rcml-tts-test-')) });
  const requests: Array<{ url: string; params: Record<string, string>; at: number }> = [];
  const recordings: Array<{ record: RecordingRecord; wav: Uint8Array }> = [];
  const calls = new Map<string, Readonly<CallRecord>>();
  let releaseSlow: () => void = () => {};

  beforeAll(async () => {
    engine = createEngine({
      clock: 'real',
      sink: {
        call: (c) => {
          calls.set(c.sid, { ...c });
        },
        recording: (record, wav) => {
          recordings.push({ record: { ...record }, wav });
        },
      },
    });
    engine.registerHandler(`${APP}/`, async (req) => {
      requests.push({ url: req.url, params: req.params, at: performance.now() });
      const path = new URL(req.url).pathname;
      switch (path) {
        case '/ivr':
          return doc(
            `<Say>Hello</Say><Gather numDigits="1" timeout="5" action="${APP}/digits"><Say>Press one</Say></Gather>`,
          );
        case '/digits':
          return doc(`<Record maxLength="2" timeout="5" playBeep="false" action="${APP}/recorded"/>`);
        case '/recorded':
          return doc('<Say>Bye</Say><Hangup/>');
        case '/busy':
          return doc('<Reject reason="busy"/>');
        case '/rejected':
          return doc('<Reject/>');
        case '/long':
          return doc('<Say>Please hold the line.</Say><Pause length="20"/>');
        case '/play':
          return doc(
            `<Play loop="2">${APP}/tone.wav</Play><Gather numDigits="1" timeout="5" action="${APP}/got"/>`,
          );
        case '/tone.wav':
          return { status: 200, contentType: 'audio/wav', body: toneWav };
        case '/got':
          return doc('<Hangup/>');
        case '/barge':
          return doc(
            `<Gather numDigits="1" timeout="5" action="${APP}/got"><Say>${LONG_PROMPT}</Say></Gather>`,
          );
        case '/listen':
          return doc('<Say>Speak</Say><Record maxLength="6" timeout="4"/>');
        case '/slow':
          await new Promise<void>((resolve) => {
            releaseSlow = resolve;
          });
          return doc('<Say>Too late</Say>');
        default:
          return { status: 404, contentType: 'text/plain', body: 'no such page' };
      }
    });
    engine.setNumber('+15550100', { voiceUrl: `${APP}/ivr` });
    engine.setNumber('15550101', { voiceUrl: `${APP}/busy` });
    engine.setNumber('+15550102', { voiceUrl: `${APP}/rejected` });
    engine.setNumber('+15550103', { voiceUrl: `${APP}/long` });
    engine.setNumber('+15550104', { voiceUrl: `${APP}/slow` });
    engine.setNumber('+15550105', { voiceUrl: `${APP}/listen` });
    engine.setNumber('+15550106', { voiceUrl: `${APP}/play` });
    engine.setNumber('+15550107', { voiceUrl: `${APP}/barge` });
    sip = await startSipService({ calls: engine, port: 0, rtpPorts: { min: 34000, max: 34999 }, tts });
  });

  afterAll(async () => {
    releaseSlow();
    await sip?.close();
    await engine?.close();
  });

  const target = () => `127.0.0.1:${sip.port}`;
  const callTo = (to: string) => [...calls.values()].filter((c) => c.to === to);

  it('answers PCMU and PCMA: the caller hears the TTS and a played WAV, its keys (RFC 4733, SIP INFO) reach the Gather action, its audio is recorded', async () => {
    const [ulawSink, alawSink, playSink] = [await rtpSink(), await rtpSink(), await rtpSink()];
    const digit = (key: string) => S.playPcap(join(SIPP_PCAPS, `dtmf_2833_${key}.pcap`));
    const ulaw = runSipp(
      S.scenario(
        'pcmu',
        `${S.answered({ payloads: '0 101', headers: ['X-Customer: gold'] })}${S.pause(1800)}${digit('1')}${S.answerBye}`,
      ),
      target(),
      { service: '15550100', keys: { sinkport: ulawSink.port, caller: '15551111' } },
    );
    const alaw = runSipp(
      S.scenario(
        'pcma',
        `${S.answered({ payloads: '8 101' })}${S.pause(1800)}${digit('2')}${S.pause(300)}${S.playPcap(join(SIPP_PCAPS, 'g711a.pcap'))}${S.answerBye}`,
      ),
      target(),
      { service: '+15550100', keys: { sinkport: alawSink.port, caller: '15552222' } },
    );
    const play = runSipp(
      S.scenario(
        'play',
        `${S.answered({ payloads: '0 101' })}${S.pause(1000)}${S.infoDigit('3', 2)}${S.answerBye}`,
      ),
      target(),
      { service: '15550106', keys: { sinkport: playSink.port, caller: '15553333' } },
    );
    const [u, a, p] = await Promise.all([ulaw.done, alaw.done, play.done]);
    ulawSink.close();
    alawSink.close();
    playSink.close();
    expect(p.code, p.messages.slice(-3000)).toBe(0);
    // The WAV played twice, resampled: at least 0.6 s of loud frames; the INFO key reached the action.
    const heard = alawmulaw.mulaw.decode(playSink.payloads());
    let loudFrames = 0;
    for (let i = 0; i + 160 <= heard.length; i += 160)
      if (level(heard.subarray(i, i + 160)) > 2000) loudFrames++;
    expect(loudFrames).toBeGreaterThanOrEqual(28);
    expect(requests.find((r) => r.url === `${APP}/got`)?.params.Digits).toBe('3');
    expect(u.code, u.messages.slice(-3000)).toBe(0);
    expect(a.code, a.messages.slice(-3000)).toBe(0);

    // The 200 OK chose the caller's codec.
    expect(u.messages).toMatch(/m=audio \d+ RTP\/AVP 0 101/);
    expect(a.messages).toMatch(/m=audio \d+ RTP\/AVP 8 101/);
    expect(ulawSink.payloadTypes()).toEqual(new Set([0]));
    expect(alawSink.payloadTypes()).toEqual(new Set([8]));

    // What the µ-law caller heard holds the TTS audio byte for byte.
    const hello = await tts.synthesize({ text: 'Hello', voice: 'man', language: 'en' });
    const whole = Math.floor(hello.length / 160) * 160;
    const expected = Buffer.from(alawmulaw.mulaw.encode(hello.subarray(0, whole)));
    expect(ulawSink.payloads().indexOf(expected)).toBeGreaterThanOrEqual(0);
    expect(level(alawmulaw.alaw.decode(alawSink.payloads()))).toBeGreaterThan(100);

    // Webhooks: From is the caller's user part, X- headers come as SipHeader_ parameters.
    const first = requests.find((r) => r.url === `${APP}/ivr` && r.params.From === '15551111');
    expect(first?.params).toMatchObject({
      To: '+15550100',
      Direction: 'inbound',
      'SipHeader_X-Customer': 'gold',
    });
    const digits = requests.filter((r) => r.url === `${APP}/digits`).map((r) => r.params.Digits);
    expect(digits.sort()).toEqual(['1', '2']);

    // The A-law caller's recording holds what it sent: the capture's audio, decoded.
    const alawCall = callTo('+15550100').find((c) => c.from === '15552222');
    const recording = recordings.find((r) => r.record.callSid === alawCall?.sid);
    expect(recording).toBeDefined();
    const pcm = decodeWav(recording?.wav ?? new Uint8Array());
    expect(pcm.length).toBe(16000);
    const sent = alawmulaw.alaw.decode(
      Buffer.concat(pcapPayloads(readFileSync(join(SIPP_PCAPS, 'g711a.pcap')))),
    );
    // The capture's packets that are not silence (160 samples each, exact as decoded): at least
    // ten of them are in the recording's 2 s (about fifty on a quiet machine), whichever 2 s of
    // the stream those were and whether or not packets were late on a loaded machine (no 160
    // samples of speech come out the same by chance).
    const recorded = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    let found = 0;
    for (let at = 0; at + 160 <= sent.length; at += 160) {
      const frame = sent.subarray(at, at + 160);
      if (!frame.some((v) => Math.abs(v) > 200)) continue;
      if (recorded.indexOf(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)) >= 0) found++;
    }
    expect(found).toBeGreaterThanOrEqual(10);
    for (const c of [alawCall, callTo('+15550100').find((c) => c.from === '15551111')]) {
      expect(c).toMatchObject({ status: 'completed' });
    }
  });

  it('refuses: Reject busy 486, Reject 603, unknown number 404, no G.711 488', async () => {
    const refused = (status: number, offer: S.OfferOptions = {}) =>
      S.scenario(
        `refused-${status}`,
        `${S.invite(offer)}
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="${status}"/>
${S.ackRefusal}`,
      );
    const runs = [
      runSipp(refused(486), target(), { service: '+15550101', keys: { sinkport: 9, caller: 'a' } }),
      runSipp(refused(603), target(), { service: '15550102', keys: { sinkport: 9, caller: 'b' } }),
      runSipp(refused(404), target(), { service: '15559999', keys: { sinkport: 9, caller: 'c' } }),
      runSipp(refused(488, { payloads: '18 3' }), target(), {
        service: '15550100',
        keys: { sinkport: 9, caller: 'd' },
      }),
    ];
    const results = await Promise.all(runs.map((r) => r.done));
    for (const r of results) expect(r.code, r.messages.slice(-2000)).toBe(0);
    expect(callTo('15550101')).toMatchObject([{ status: 'busy' }]);
    expect(callTo('+15550102')).toMatchObject([{ status: 'busy' }]);
    // A number nobody routes is refused by the SIP service itself: no call record (a scan's
    // tries are counted in metrics, rcml_sip_refused_total, instead).
    expect(callTo('15559999')).toEqual([]);
    expect(callTo('+15559999')).toEqual([]);
  });

  it('ends on the caller: BYE over TCP (completed), CANCEL while ringing (487, canceled)', async () => {
    const bye = runSipp(S.scenario('bye', `${S.answered()}${S.pause(500)}${S.sendBye()}`), target(), {
      service: '15550103',
      keys: { sinkport: 9, caller: 'byer' },
      extra: ['-t', 't1'],
    });
    const cancel = runSipp(
      S.scenario(
        'cancel',
        `${S.invite()}
  <recv response="100" optional="true"/>
  <recv response="180"/>
  <send>
    <![CDATA[
      CANCEL sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      [last_Via:]
      [last_From:]
      To: <sip:[service]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 CANCEL
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <recv response="200"/>
  <recv response="487"/>
${S.ackRefusal}`,
      ),
      target(),
      { service: '15550104', keys: { sinkport: 9, caller: 'canceler' } },
    );
    const [b, c] = await Promise.all([bye.done, cancel.done]);
    expect(b.code, b.messages.slice(-2000)).toBe(0);
    expect(b.messages).toMatch(/TCP message received/);
    expect(c.code, c.messages.slice(-2000)).toBe(0);
    await until(() => callTo('+15550103').some((x) => x.from === 'byer' && x.status === 'completed'));
    expect(callTo('+15550103').find((x) => x.from === 'byer')).toMatchObject({
      status: 'completed',
      endedBy: 'caller',
    });
    await until(() => callTo('+15550104').some((x) => x.status === 'canceled'));
    expect(callTo('+15550104')).toMatchObject([{ status: 'canceled', endedBy: 'caller' }]);
  });

  it("a key stops the Gather's prompt at once (barge-in) and reaches the action", async () => {
    const sink = await rtpSink();
    const barge = runSipp(
      S.scenario(
        'barge',
        `${S.answered({ payloads: '0 101' })}${S.pause(1000)}${S.playPcap(join(SIPP_PCAPS, 'dtmf_2833_4.pcap'))}${S.answerBye}`,
      ),
      target(),
      { service: '15550107', keys: { sinkport: sink.port, caller: 'barger' } },
    );
    const b = await barge.done;
    sink.close();
    expect(b.code, b.messages.slice(-3000)).toBe(0);
    const prompt = await tts.synthesize({ text: LONG_PROMPT, voice: 'man', language: 'en' });
    expect(prompt.length / 8000).toBeGreaterThan(6);
    const asked = requests.find((r) => r.url === `${APP}/barge`);
    const action = requests.find((r) => r.url === `${APP}/got` && r.params.Digits === '4');
    expect(action).toBeDefined();
    // The action came about a second after the answer, seconds before the prompt's end, and
    // the caller heard well under the whole prompt.
    expect((action?.at ?? 0) - (asked?.at ?? 0)).toBeLessThan(4000);
    const heard = alawmulaw.mulaw.decode(sink.payloads());
    let loudFrames = 0;
    for (let i = 0; i + 160 <= heard.length; i += 160)
      if (level(heard.subarray(i, i + 160)) > 200) loudFrames++;
    expect(loudFrames * 160).toBeLessThan(prompt.length / 2);
  });

  it('follows a hold re-INVITE (recvonly answer, no audio sent) and retransmits the 200 until the ACK', async () => {
    const sink = await rtpSink();
    const hold = runSipp(
      S.scenario(
        'hold',
        `${S.invite()}
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
  <pause milliseconds="1700"/>
${S.ack2xx()}${S.pause(600)}${S.reInvite({}, 'sendonly', 2).replace('<recv response="200"/>', '<recv response="200"><action><ereg regexp="a=recvonly" search_in="body" check_it="true" assign_to="held"/></action></recv>')}${S.pause(800)}${S.reInvite({}, 'sendrecv', 3).replace('<recv response="200"/>', '<recv response="200"><action><ereg regexp="a=sendrecv" search_in="body" check_it="true" assign_to="resumed"/></action></recv>')}${S.pause(500)}${S.sendBye(4)}
  <Reference variables="held,resumed"/>`,
      ),
      target(),
      { service: '15550103', keys: { sinkport: sink.port, caller: 'holder' } },
    );
    const h = await hold.done;
    sink.close();
    expect(h.code, h.messages.slice(-3000)).toBe(0);
    // The 200 came at 0, T1 (500 ms) and 3*T1 (1.5 s), before the ACK at 1.7 s, and not after it
    // (the next would have come at 3.5 s, during the hold).
    expect(h.messages.match(/SIP\/2\.0 200 OK\r?\n(?:[^\r\n]+\r?\n)*?CSeq: 1 INVITE/g)).toHaveLength(3);
    // While held (about 800 ms), no audio arrived: one gap of at least 600 ms.
    const times = sink.arrivals();
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(Math.max(...gaps)).toBeGreaterThan(600);
    expect(times.length).toBeGreaterThan(20);
  });

  it.skipIf(noBaresip)(
    'interoperates with baresip: its call is answered and its speech recorded',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rcml-speech-'));
      const wav = join(dir, 'speech.wav');
      const pcm = await tts.synthesize({
        text: 'one two three four five six seven eight nine ten',
        voice: 'woman',
        language: 'en',
      });
      writeFileSync(wav, encodeWav(pcm));
      const log = await baresip(`sip:15550105@127.0.0.1:${sip.port}`, wav);
      expect(log).toMatch(/Call established/);
      await until(() => callTo('+15550105').some((c) => c.status === 'completed'));
      const call = callTo('+15550105')[0];
      expect(call).toMatchObject({ status: 'completed', from: 'baresip' });
      // The recording is stored once its audio came back from the media worker, after the hang-up.
      await until(() => recordings.some((r) => r.record.callSid === call.sid));
      const recording = recordings.find((r) => r.record.callSid === call.sid);
      expect(recording?.record.duration).toBeGreaterThan(0.5);
      expect(level(decodeWav(recording?.wav ?? new Uint8Array()))).toBeGreaterThan(100);
    },
  );
});

/**
 * baresip 1.0.0 as an independent caller: a config directory on loopback that dials `uri`,
 * streams `wav` and hangs up when the file ends. Resolves with its log once it exits.
 */
function baresip(uri: string, wav: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-baresip-'));
  const port = 36000 + Math.floor(Math.random() * 1000) * 2 + 1;
  writeFileSync(
    join(dir, 'config'),
    [
      `sip_listen 127.0.0.1:${port}`,
      'net_interface 127.0.0.1',
      'audio_player aufile,/dev/null',
      `audio_source aufile,${wav}`,
      'audio_alert aufile,/dev/null',
      'module_path /usr/lib/baresip/modules',
      'module stdio.so',
      'module g711.so',
      'module aufile.so',
      'module_app account.so',
      'module_app menu.so',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'accounts'), '<sip:baresip@127.0.0.1>;regint=0\n');
  const child = spawn('baresip', ['-f', dir, '-e', `/dial ${uri}`, '-t', '8'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => {
    log += d;
    // It hangs up when its file ends; it has nothing more to do then.
    if (/terminated/.test(log)) child.kill();
  });
  child.stderr?.on('data', (d) => {
    log += d;
  });
  return new Promise((resolve) => child.once('exit', () => resolve(log)));
}

/** Waits (polling the event loop, not the clock) until `check` holds, at most 5 s. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}
