/**
 * Dial bridges over SIP on loopback: a SIPp caller dials in, the engine dials a SIPp callee
 * and bridges them in the media worker. Each side sends a tone of its own (a capture written
 * by the test, played by SIPp) so what was heard or recorded can be told apart.
 */
import dgram from 'node:dgram';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import alawmulaw from 'alawmulaw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { CallRecord, RecordingRecord } from '../../src/engine/records.js';
import type { EngineEvent } from '../../src/engine/types.js';
import { deferredTelephony } from '../../src/telephony/deferred-telephony.js';
import { DtmfReceiver } from '../../src/telephony/media/dtmf.js';
import { readRtp, writeRtp } from '../../src/telephony/media/rtp.js';
import { type SipService, startSipService } from '../../src/telephony/sip-service.js';
import { createEspeakTts } from '../../src/telephony/tts/espeak.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as S from '../support/sipp-scenarios.js';
import { level, rtpSink } from './support.js';
import { digitsPcap, holds, tonePcap, wavSamples } from './tones.js';

/** A socket standing in for a callee's RTP port: the keys it hears as RFC 4733 events. */
async function keyEar(payloadType: number) {
  const socket = dgram.createSocket('udp4');
  const receiver = new DtmfReceiver();
  const keys: Array<{ key: string; at: number }> = [];
  let shown = false;
  socket.on('message', (packet, from) => {
    const rtp = readRtp(packet);
    // A comfort-noise packet back shows the sender this address is ours (symmetric RTP).
    if (rtp && !shown) {
      shown = true;
      socket.send(
        writeRtp({ payloadType: 13, marker: false, sequence: 1, timestamp: 0, ssrc: 5 }, Uint8Array.of(60)),
        from.port,
        from.address,
      );
    }
    if (rtp?.payloadType !== payloadType) return;
    const key = receiver.receive(rtp.ssrc, rtp.timestamp, rtp.payload, performance.now());
    if (key) keys.push({ key, at: performance.now() });
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return { port: socket.address().port, keys, close: () => socket.close() };
}

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const APP = 'http://bridge.test';
const captures = mkdtempSync(join(tmpdir(), 'rcml-bridge-'));
const CALLER_TONE = 440;
const CALLEE_TONE = 1330;

/** A SIPp callee on a port of its own; resolves when its scenario is over. */
function callee(name: string, body: string, keys: Record<string, number> = {}) {
  const port = 37000 + Math.floor(Math.random() * 1500) * 2;
  const run = runSipp(S.scenario(name, body), '127.0.0.1', { port, keys, extra: ['-timeout', '12s'] });
  return { port, done: run.done };
}

describe.skipIf(skip)('Dial bridges over SIP', () => {
  let engine: Engine;
  let sip: SipService;
  const late = deferredTelephony();
  let numberRoute: string | undefined;
  /** The document each number's call runs, set by each test. */
  const documents = new Map<string, string>();
  const recordings: Array<{ record: Readonly<RecordingRecord>; wav: Uint8Array }> = [];
  const finals = new Map<string, Readonly<CallRecord>>();
  const events: EngineEvent[] = [];
  const callerTone = join(captures, 'caller.pcap');
  const calleeTone = join(captures, 'callee.pcap');
  const tts = createEspeakTts({ cacheDir: mkdtempSync(join(tmpdir(), 'rcml-tts-test-')) });

  beforeAll(async () => {
    writeFileSync(callerTone, tonePcap(CALLER_TONE, 2, { amplitude: 6000 }));
    writeFileSync(calleeTone, tonePcap(CALLEE_TONE, 2, { amplitude: 6000 }));
    engine = createEngine({
      clock: 'real',
      telephony: (simulated) => {
        const telephony = late.factory(simulated);
        return {
          ...telephony,
          // A number stands for the SIPp callee of the test (no trunk here).
          dial: (request, events) =>
            telephony.dial(
              /^\+\d+$/.test(request.to) && numberRoute ? { ...request, to: numberRoute } : request,
              events,
            ),
        };
      },
      sink: {
        call: (c) => {
          if (c.endTime) finals.set(c.sid, { ...c });
        },
        recording: (record, wav) => recordings.push({ record: { ...record }, wav }),
      },
      onEvent: (event) => events.push(event),
    });
    engine.registerHandler(`${APP}/`, async (req) => ({
      status: 200,
      contentType: 'application/xml',
      body: documents.get(new URL(req.url).pathname) ?? '<Response><Hangup/></Response>',
    }));
    sip = await startSipService({ calls: engine, port: 0, rtpPorts: { min: 38000, max: 38999 }, tts });
    late.use((simulated) => sip.telephony(simulated));
  });

  afterAll(async () => {
    await sip?.close();
    await engine?.close();
  });

  /** Routes `number` to `document` and calls it from a SIPp caller running `body` after the answer. */
  function dialIn(
    number: string,
    document: string,
    body: string,
    keys: Record<string, number | string> = {},
  ) {
    documents.set(`/${number}`, document);
    engine.setNumber(`+${number}`, { voiceUrl: `${APP}/${number}` });
    return runSipp(
      S.scenario(`caller-${number}`, `${S.answered({ payloads: '0 101' })}${body}`),
      `127.0.0.1:${sip.port}`,
      {
        service: `+${number}`,
        keys: { sinkport: 9, caller: '15553333', ...keys },
      },
    ).done;
  }

  it('records a Dial bridge: the stored WAV holds the caller and the callee, mixed to mono', async () => {
    const leg = callee('recorded', C.answering({ afterAck: `${S.pause(300)}${S.playPcap(calleeTone)}` }), {
      sinkport: 9,
    });
    const caller = dialIn(
      '15550300',
      `<Response><Dial record="true" timeout="5"><Sip>sip:alice@127.0.0.1:${leg.port}</Sip></Dial></Response>`,
      `${S.pause(300)}${S.playPcap(callerTone)}${S.pause(2600)}${S.sendBye()}`,
    );
    const [from, to] = await Promise.all([caller, leg.done]);
    expect(from.code, from.messages).toBe(0);
    expect(to.code, to.messages).toBe(0);
    await expect.poll(() => recordings.length).toBe(1);
    const [{ record, wav }] = recordings;
    const pcm = wavSamples(wav);
    // About the bridge's length (the caller's 3.2 s less the ringing), to the millisecond.
    expect(record.duration).toBeGreaterThan(2);
    expect(record.duration).toBeLessThan(4);
    expect(Math.abs(pcm.length / 8000 - record.duration)).toBeLessThan(0.002);
    // Both tones overlap in the middle of the recording.
    const middle = pcm.subarray(Math.round(pcm.length * 0.35), Math.round(pcm.length * 0.55));
    expect(holds(middle, CALLER_TONE)).toBe(true);
    expect(holds(middle, CALLEE_TONE)).toBe(true);
  }, 20_000);

  it('sends Dial sendDigits to the answered callee as RFC 4733 events, w pausing half a second', async () => {
    const ear = await keyEar(101);
    const leg = callee('keyed', C.answering(), { sinkport: ear.port });
    numberRoute = `sip:bob@127.0.0.1:${leg.port}`;
    try {
      const caller = dialIn(
        '15550301',
        '<Response><Dial timeout="5"><Number sendDigits="1w2#">+15557770000</Number></Dial></Response>',
        `${S.pause(2500)}${S.sendBye()}`,
      );
      const [from, to] = await Promise.all([caller, leg.done]);
      expect(from.code, from.messages).toBe(0);
      expect(to.code, to.messages).toBe(0);
    } finally {
      numberRoute = undefined;
      ear.close();
    }
    expect(ear.keys.map((k) => k.key)).toEqual(['1', '2', '#']);
    // 1 sounds 140 ms, then 100 ms of gap and the 500 ms pause before 2; 2 and # 240 ms apart.
    const [one, two, hash] = ear.keys.map((k) => k.at);
    expect(two - one).toBeGreaterThan(600);
    expect(hash - two).toBeLessThan(500);
  }, 20_000);

  it("ends the bridge on the caller's * (RFC 4733) with hangupOnStar; keys pressed while bridged are reported", async () => {
    const keys = join(captures, 'keys.pcap');
    writeFileSync(keys, digitsPcap('1*'));
    const leg = callee('starred', C.answering(), { sinkport: 9 });
    const started = performance.now();
    const caller = dialIn(
      '15550302',
      `<Response><Dial action="/after-star" hangupOnStar="true" timeout="5"><Sip>sip:carol@127.0.0.1:${leg.port}</Sip></Dial></Response>`,
      `${S.pause(800)}${S.playPcap(keys)}${S.answerBye}`,
    );
    const [from, to] = await Promise.all([caller, leg.done]);
    expect(from.code, from.messages).toBe(0);
    expect(to.code, to.messages).toBe(0);
    // The callee was hung up by the star, long before anyone else would have.
    expect(performance.now() - started).toBeLessThan(4000);
    const sid = [...finals.values()].find((c) => c.to === '+15550302')?.sid;
    expect(sid).toBeDefined();
    const ends = events.filter((e) => e.type === 'bridge' && e.action === 'end' && e.callSid === sid);
    expect(ends.map((e) => e.type === 'bridge' && e.reason)).toEqual(['hangup-on-star']);
    const pressed = events.flatMap((e) =>
      e.type === 'input' && e.callSid === sid && e.input.kind === 'dtmf' ? [[e.input.keys, e.heard]] : [],
    );
    expect(pressed).toEqual([
      ['1', false],
      ['*', false],
    ]);
  }, 20_000);

  it("passes a callee's early media (183 with SDP) to the answered caller before the callee answers", async () => {
    const ear = await rtpSink();
    const leg = callee('early', C.earlyThenAnswer(S.playPcap(calleeTone)), { sinkport: 9 });
    const caller = dialIn(
      '15550303',
      `<Response><Dial timeout="8"><Sip>sip:dave@127.0.0.1:${leg.port}</Sip></Dial></Response>`,
      `${S.pause(3800)}${S.sendBye()}`,
      { sinkport: ear.port },
    );
    const [from, to] = await Promise.all([caller, leg.done]);
    ear.close();
    expect(from.code, from.messages).toBe(0);
    expect(to.code, to.messages).toBe(0);
    expect(to.messages).toMatch(/^SIP\/2\.0 183 Session Progress/m);
    // The callee sends audio only before its 200: a caller who heard its tone heard early media.
    const pcm = alawmulaw.mulaw.decode(new Uint8Array(ear.payloads()));
    expect(holds(pcm, CALLEE_TONE, 440)).toBe(true);
  }, 20_000);

  it('plays hold music to the caller left alone while its callee is held (StayConnected Hold), silence after Resume', async () => {
    const callerEar = await rtpSink();
    const calleeEar = await rtpSink();
    const leg = callee(
      'held-leg',
      C.answering({
        afterAck: `${C.takeReinvite('sendonly', 'recvonly')}${C.takeReinvite('sendrecv', 'sendrecv')}`,
      }),
      { sinkport: calleeEar.port },
    );
    documents.set('/hold-leg', '<Response><Hold/><Pause length="2"/><Resume/></Response>');
    const caller = dialIn(
      '15550304',
      `<Response><Dial timeout="5"><Sip>sip:erin@127.0.0.1:${leg.port}</Sip></Dial></Response>`,
      `${S.pause(4500)}${S.sendBye()}`,
      { sinkport: callerEar.port },
    );
    const bridgedLeg = () =>
      engine.listCalls().find((c) => c.to.startsWith('sip:erin@') && c.status === 'in-progress');
    await expect.poll(bridgedLeg, { timeout: 5000 }).toBeDefined();
    engine.modifyCall(bridgedLeg()?.sid as string, {
      Url: `${APP}/hold-leg`,
      ChildCallMode: 'StayConnected',
    });
    const [from, to] = await Promise.all([caller, leg.done]);
    callerEar.close();
    calleeEar.close();
    expect(from.code, from.messages).toBe(0);
    expect(to.code, to.messages).toBe(0);
    // The caller, left alone, hears the music's two notes while the callee is held; the held
    // callee hears its own document (the Pause: silence).
    const alone = alawmulaw.mulaw.decode(new Uint8Array(callerEar.payloads()));
    const held = alone.subarray(0, 16000);
    expect(holds(held, 523.25)).toBe(true);
    expect(holds(held, 659.25)).toBe(true);
    // Music only while held: after the Resume (no one speaking) both hear silence.
    for (const ear of [callerEar, calleeEar]) {
      const pcm = alawmulaw.mulaw.decode(new Uint8Array(ear.payloads()));
      expect(level(pcm.subarray(pcm.length - 8000))).toBeLessThan(20);
    }
  }, 20_000);
});
