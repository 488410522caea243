/**
 * A queue over SIP on loopback, in real time: a SIPp caller enqueues and hears the waitUrl's
 * tone; a second SIPp caller dials the queue; the Queue noun's url plays its tone to the
 * waiting caller; then the two lines are bridged and each hears the other's tone, not its own.
 * A queued agent that rejoins hears its wait music again between two customers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import alawmulaw from 'alawmulaw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { deferredTelephony } from '../../src/telephony/deferred-telephony.js';
import { type SipService, startSipService } from '../../src/telephony/sip-service.js';
import { createEspeakTts } from '../../src/telephony/tts/espeak.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as S from '../support/sipp-scenarios.js';
import { rtpSink } from './support.js';
import { dominantTones, toneWav, writeTonePcap } from './tones.js';

const skip = missingTools('sipp', 'espeak-ng', 'sox');
const APP = 'http://app.test';
/** Hz of the wait music, the Queue url's announcement, the caller's voice and the agent's. */
const WAIT = 440;
const JOIN = 1500;
const CALLER = 700;
const AGENT = 1100;
const TONES = [WAIT, JOIN, CALLER, AGENT];

const DOCS: Record<string, string> = {
  '/enqueue': '<Response><Enqueue waitUrl="/wait">support</Enqueue></Response>',
  '/wait': '<Response><Play>/wait.wav</Play></Response>',
  '/agent': '<Response><Dial><Queue url="/announce">support</Queue></Dial></Response>',
  '/announce': '<Response><Play>/announce.wav</Play></Response>',
  '/queued-agent': '<Response><Enqueue waitUrl="/wait" rejoin="true">agents</Enqueue></Response>',
  '/customer': '<Response><Dial><Queue>agents</Queue></Dial></Response>',
};
const WAVS: Record<string, Uint8Array> = {
  '/wait.wav': toneWav(WAIT, 1),
  '/announce.wav': toneWav(JOIN, 0.6),
};

/** The first index of `tone` in the blocks, or -1; and how many blocks it holds. */
const firstOf = (blocks: Array<number | undefined>, tone: number) => blocks.indexOf(tone);
const countOf = (blocks: Array<number | undefined>, tone: number) => blocks.filter((t) => t === tone).length;

describe.skipIf(skip)('queues over SIP', () => {
  let engine: Engine;
  let sip: SipService;
  const late = deferredTelephony();
  const dir = mkdtempSync(join(tmpdir(), 'rcml-queue-tones-'));

  beforeAll(async () => {
    engine = createEngine({
      clock: 'real',
      telephony: late.factory,
    });
    engine.registerHandler(`${APP}/`, async (req) => {
      const path = new URL(req.url).pathname;
      const wav = WAVS[path];
      if (wav) return { status: 200, contentType: 'audio/wav', body: wav };
      return { status: 200, contentType: 'application/xml', body: DOCS[path] ?? '<Response/>' };
    });
    engine.setNumber('+15550300', { voiceUrl: `${APP}/enqueue` });
    engine.setNumber('+15550301', { voiceUrl: `${APP}/agent` });
    engine.setNumber('+15550302', { voiceUrl: `${APP}/queued-agent` });
    engine.setNumber('+15550303', { voiceUrl: `${APP}/customer` });
    const tts = createEspeakTts({ cacheDir: join(dir, 'tts') });
    sip = await startSipService({ calls: engine, port: 0, rtpPorts: { min: 37000, max: 37999 }, tts });
    late.use((simulated) => sip.telephony(simulated));
    writeTonePcap(join(dir, 'caller.pcap'), CALLER, 1.5);
    writeTonePcap(join(dir, 'agent.pcap'), AGENT, 1.5);
  });

  afterAll(async () => {
    await sip?.close();
    await engine?.close();
  });

  it.concurrent('plays the waitUrl to the waiting caller, the Queue url before the bridge, then bridges both ways', async () => {
    const callerEar = await rtpSink();
    const agentEar = await rtpSink();
    // t=0 the caller enqueues (wait music); t~1.5 s the agent dials the queue (0.6 s of
    // announcement to the caller, then the bridge); each sends its tone for 1.5 s from t~2.8 s;
    // the caller hangs up at t~6.3 s, which ends the bridge and the agent's Dial (our BYE).
    const caller = runSipp(
      S.scenario(
        'enqueued',
        `${S.answered({ payloads: '8 101' })}${S.pause(2800)}${S.playPcap(join(dir, 'caller.pcap'))}${S.pause(2000)}${S.sendBye()}`,
      ),
      `127.0.0.1:${sip.port}`,
      { service: '+15550300', keys: { sinkport: callerEar.port, caller: '15556000' } },
    );
    const agent = runSipp(
      S.scenario(
        'agent',
        `${S.pause(1500)}${S.answered({ payloads: '8 101' })}${S.pause(1300)}${S.playPcap(join(dir, 'agent.pcap'))}${S.answerBye}`,
      ),
      `127.0.0.1:${sip.port}`,
      { service: '+15550301', keys: { sinkport: agentEar.port, caller: '15556001' } },
    );
    const [from, to] = await Promise.all([caller.done, agent.done]);
    callerEar.close();
    agentEar.close();
    expect(from.code, from.messages).toBe(0);
    expect(to.code, to.messages).toBe(0);

    const heard = dominantTones(alawmulaw.alaw.decode(new Uint8Array(callerEar.payloads())), TONES);
    const agentHeard = dominantTones(alawmulaw.alaw.decode(new Uint8Array(agentEar.payloads())), TONES);
    const summary = `caller heard ${heard.join(',')}\nagent heard ${agentHeard.join(',')}`;
    // The caller: wait music, then the announcement, then the agent; never its own voice.
    expect(countOf(heard, WAIT), summary).toBeGreaterThanOrEqual(3);
    expect(countOf(heard, JOIN), summary).toBeGreaterThanOrEqual(3);
    expect(countOf(heard, AGENT), summary).toBeGreaterThanOrEqual(10);
    expect(countOf(heard, CALLER), summary).toBe(0);
    expect(firstOf(heard, WAIT), summary).toBeLessThan(firstOf(heard, JOIN));
    expect(firstOf(heard, JOIN), summary).toBeLessThan(firstOf(heard, AGENT));
    // The wait music stopped at the match: none of it after the announcement began.
    expect(heard.lastIndexOf(WAIT), summary).toBeLessThan(firstOf(heard, JOIN));
    // The agent: the caller's voice only (no wait music, no announcement, not itself).
    expect(countOf(agentHeard, CALLER), summary).toBeGreaterThanOrEqual(10);
    expect(countOf(agentHeard, WAIT) + countOf(agentHeard, JOIN) + countOf(agentHeard, AGENT), summary).toBe(
      0,
    );
  }, 20_000);

  it.concurrent('puts a queued agent that rejoins back on its wait music between two customers', async () => {
    const agentEar = await rtpSink();
    writeTonePcap(join(dir, 'customer.pcap'), CALLER, 1);
    // t=0 the agent enqueues (rejoin); customers dial the queue at t~2 s and t~4 s (SIPp's
    // first call comes one period after its start), each bridged at once while its own line is
    // still being answered, sending its tone for 1 s and hanging up; the agent hangs up at t~6.5 s.
    const agent = runSipp(
      S.scenario('queued-agent', `${S.answered({ payloads: '8 101' })}${S.pause(6500)}${S.sendBye()}`),
      `127.0.0.1:${sip.port}`,
      { service: '+15550302', keys: { sinkport: agentEar.port, caller: '15556002' } },
    );
    const customers = runSipp(
      S.scenario(
        'customer',
        `${S.answered({ payloads: '8 101' })}${S.pause(300)}${S.playPcap(join(dir, 'customer.pcap'))}${S.pause(1100)}${S.sendBye()}`,
      ),
      `127.0.0.1:${sip.port}`,
      {
        service: '+15550303',
        calls: 2,
        rate: 1,
        extra: ['-rp', '2000'],
        keys: { sinkport: 9, caller: '15556003' },
      },
    );
    const [queued, dialing] = await Promise.all([agent.done, customers.done]);
    agentEar.close();
    expect(queued.code, queued.messages).toBe(0);
    expect(dialing.code, dialing.messages).toBe(0);
    const heard = dominantTones(alawmulaw.alaw.decode(new Uint8Array(agentEar.payloads())), TONES);
    // What the agent heard, each run of one tone once: music, customer, music again, customer.
    const runs = heard.filter((t, i) => t !== undefined && t !== heard[i - 1]);
    const steps = runs.filter((t, i) => t !== runs[i - 1]);
    expect(steps.slice(0, 4), heard.join(',')).toEqual([WAIT, CALLER, WAIT, CALLER]);
  }, 20_000);
});
