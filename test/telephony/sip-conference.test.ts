/**
 * A three-member conference over real SIP on loopback: three SIPp callers join one room, each
 * sends its own tone (a pcap written here) and hears, through an RTP sink, what the engine's
 * media worker mixed for it: the two other tones, not its own.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
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
import { goertzel, tonePcap } from './tones.js';

const skip = missingTools('sipp');
const TONES = [440, 770, 1230];

describe.skipIf(skip)('conference over SIP', () => {
  let engine: Engine;
  let sip: SipService;
  const dir = mkdtempSync(join(tmpdir(), 'rcml-conference-test-'));

  beforeAll(async () => {
    const late = deferredTelephony();
    engine = createEngine({
      clock: 'real',
      telephony: late.factory,
    });
    engine.registerHandler('http://app.test/', () => ({
      status: 200,
      contentType: 'application/xml',
      body: '<Response><Dial><Conference beep="false" startConferenceOnEnter="true">tones</Conference></Dial></Response>',
    }));
    engine.setNumber('+15550300', { voiceUrl: 'http://app.test/room' });
    const tts = createEspeakTts({ cacheDir: join(dir, 'tts') });
    sip = await startSipService({ calls: engine, port: 0, rtpPorts: { min: 37000, max: 37099 }, tts });
    late.use((simulated) => sip.telephony(simulated));
  });

  afterAll(async () => {
    await sip?.close();
    await engine?.close();
  });

  it('mixes three SIP members: each hears the two other tones and not its own', async () => {
    const ears = await Promise.all(TONES.map(() => rtpSink()));
    const runs = TONES.map((frequency, i) => {
      const pcap = join(dir, `tone-${frequency}.pcap`);
      writeFileSync(pcap, tonePcap(frequency, 2, { amplitude: 6000 }));
      return runSipp(
        S.scenario(
          `member-${frequency}`,
          `${S.answered()}${S.pause(300)}${S.playPcap(pcap)}${S.pause(2400)}${S.sendBye()}`,
        ),
        `127.0.0.1:${sip.port}`,
        { service: '+15550300', keys: { sinkport: ears[i]?.port ?? 9, caller: `1555030${i}` } },
      );
    });
    const done = await Promise.all(runs.map((r) => r.done));
    for (const ear of ears) ear.close();
    for (const run of done) expect(run.code, run.messages).toBe(0);
    TONES.forEach((own, i) => {
      const pcm = alawmulaw.mulaw.decode(new Uint8Array(ears[i]?.payloads() ?? []));
      expect(pcm.length).toBeGreaterThan(8000 * 2);
      const power = Object.fromEntries(TONES.map((f) => [f, goertzel(pcm, f)]));
      for (const other of TONES.filter((f) => f !== own)) {
        // Each other tone is there, and far above what is left of the member's own (G.711 noise).
        expect(power[other], `member ${own} Hz hears ${other} Hz`).toBeGreaterThan(100_000);
        expect(power[other], `member ${own} Hz does not hear itself`).toBeGreaterThan(
          100 * (power[own] ?? 0),
        );
      }
    });
  }, 20_000);
});
