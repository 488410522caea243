/** An engine on the real clock with a SIP service on loopback, as the SIP call tests use them. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { CallRecord } from '../../src/engine/records.js';
import { deferredTelephony } from '../../src/telephony/deferred-telephony.js';
import { type SipService, type SipServiceOptions, startSipService } from '../../src/telephony/sip-service.js';
import { createEspeakTts } from '../../src/telephony/tts/espeak.js';

export interface SipHarness {
  engine: Engine;
  sip: SipService;
  /** The call's record once it has ended. */
  ended(sid: string): Promise<Readonly<CallRecord>>;
  /** Stops the SIP service, then the engine. */
  close(): Promise<void>;
}

/**
 * Starts an engine whose telephony is the SIP service's, and the service on 127.0.0.1 (any
 * port, espeak-ng speech cached in a scratch folder unless `tts` is given).
 */
export async function startSipHarness(
  options: Omit<SipServiceOptions, 'calls' | 'port'>,
): Promise<SipHarness> {
  const finals = new Map<string, Readonly<CallRecord>>();
  const waiting = new Map<string, (call: Readonly<CallRecord>) => void>();
  const late = deferredTelephony();
  const engine = createEngine({
    clock: 'real',
    telephony: late.factory,
    sink: {
      call: (c) => {
        if (!c.endTime) return;
        const final = { ...c };
        finals.set(c.sid, final);
        waiting.get(c.sid)?.(final);
      },
    },
  });
  const tts = options.tts ?? createEspeakTts({ cacheDir: mkdtempSync(join(tmpdir(), 'rcml-tts-test-')) });
  const sip = await startSipService({ ...options, tts, calls: engine, port: 0 });
  late.use((simulated) => sip.telephony(simulated));
  return {
    engine,
    sip,
    ended: (sid) => {
      const call = finals.get(sid);
      return call ? Promise.resolve(call) : new Promise((resolve) => waiting.set(sid, resolve));
    },
    close: async () => {
      await sip.close();
      await engine.close();
    },
  };
}
