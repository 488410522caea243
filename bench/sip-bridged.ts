/**
 * Bridged calls for `npm run bench -- sip`: a SIPp caller calls a number whose document Dials a
 * `sip:` address served by a second SIPp (the callee), so every call is two legs bridged in the
 * media worker. Both SIPp processes stream an A-law tone (a WAV sox writes) for the whole call
 * with SIPp's `rtp_stream`, whose few threads serve every call (its capture playback is a
 * thread per call, a load of its own on two cores), and point their media at the sink process,
 * which measures what the engine relays to each leg (inter-arrival, sequence gaps).
 *
 * Goal: >= 250 concurrent bridged calls (500 legs) on one core with inter-arrival p99.9 under
 * 40 ms at the receivers and nothing lost. RCML_BENCH_SIP_BRIDGED (default 250) sets the calls.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/engine/engine.js';
import { deferredTelephony } from '../src/telephony/deferred-telephony.js';
import type { MediaStats } from '../src/telephony/media/protocol.js';
import { startSipService } from '../src/telephony/sip-service.js';
import type { TextToSpeech } from '../src/telephony/tts/port.js';
import * as C from '../test/support/sipp-callee.js';
import * as S from '../test/support/sipp-scenarios.js';

export const BRIDGED = Number(process.env.RCML_BENCH_SIP_BRIDGED ?? 250);
/** How long each caller stays after the answer, ms, both sides streaming all along. */
const HOLD_MS = 10_000;
export const BRIDGED_HOLD_S = HOLD_MS / 1000;
const CALLEE_PORT = 35071;

/** What the phase needs of the sink process and of the leg counter of `sip.ts`. */
export interface Sink {
  port: number;
  report(): Promise<{ packets: number; lost: number; streams: number; p999: number; p99: number }>;
}
export interface LegCounter {
  answer(): void;
  end(): void;
  readonly answered: number;
  readonly peak: number;
  readonly mean: number;
  stop(): void;
}

export interface BridgedResult {
  answeredLegs: number;
  peakLegs: number;
  cpuPercent: number;
  cpuPerLeg: number;
  media: MediaStats;
  sink: Awaited<ReturnType<Sink['report']>>;
  callerCode: number | null;
  calleeCode: number | null;
}

/** Both sides' audio: SIPp streams this file in a loop (PCMA, payload 8) until the call ends. */
export function streamedTone(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rcml-bench-tone-')), 'tone-alaw.wav');
  execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', 'a-law', file, 'synth', '6.4', 'sine', '440']);
  return `
  <nop><action><exec rtp_stream="${file},-1,8"/></action></nop>`;
}

function sippRun(name: string, body: string, args: string[]): ChildProcess {
  const dir = mkdtempSync(join(tmpdir(), `rcml-bench-${name}-`));
  const file = join(dir, 'scenario.xml');
  writeFileSync(file, S.scenario(name, body));
  return spawn(
    'sipp',
    ['-sf', file, ...args, '-i', '127.0.0.1', '-nostdin', '-timeout', '120s', '-l', String(BRIDGED)],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => {
    let err = '';
    child.stderr?.on('data', (d) => {
      err += d;
    });
    child.once('exit', (code) => {
      // A failed SIPp says why on its stderr: keep its last lines beside the figures.
      if (code !== 0) console.log(err.split('\n').slice(-10).join('\n'));
      resolve(code);
    });
  });

/** Runs `calls` bridged calls at `rate` new calls/s through the engine. */
export async function bridgedPhase(
  sink: Sink,
  counter: LegCounter,
  tts: TextToSpeech,
  rate: number,
): Promise<BridgedResult> {
  // Dial legs go through the SIP service's telephony once it is up (it needs the simulated one).
  const late = deferredTelephony();
  const engine = createEngine({
    clock: 'real',
    retainCalls: false,
    telephony: late.factory,
    onEvent: (event) => {
      if (event.type !== 'call-status') return;
      if (event.status === 'in-progress') counter.answer();
      else if (event.status === 'completed') counter.end();
    },
  });
  engine.registerHandler('http://bench.test/', () => ({
    status: 200,
    contentType: 'application/xml',
    body: `<Response><Dial><Sip>sip:agent@127.0.0.1:${CALLEE_PORT}</Sip></Dial></Response>`,
  }));
  engine.setNumber('+15550100', { voiceUrl: 'http://bench.test/bridge' });
  const sip = await startSipService({ calls: engine, port: 0, rtpPorts: { min: 40000, max: 49999 }, tts });
  late.use((simulated) => sip.telephony(simulated));
  await sip.mediaStats();
  await sink.report();
  const media = streamedTone();
  const callee = sippRun('callee', C.answering({ payload: '8', afterAck: media }), [
    '-p',
    String(CALLEE_PORT),
    '-mp',
    '35300',
    '-m',
    String(BRIDGED),
    '-key',
    'sinkport',
    String(sink.port),
  ]);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const caller = sippRun(
    'caller',
    `${S.answered({ payloads: '8 101' })}${media}${S.pause(HOLD_MS)}${S.sendBye()}`,
    [
      `127.0.0.1:${sip.port}`,
      '-p',
      '35061',
      '-mp',
      '35100',
      '-m',
      String(BRIDGED),
      '-r',
      String(rate),
      '-s',
      '15550100',
      '-key',
      'sinkport',
      String(sink.port),
      '-key',
      'caller',
      'bench',
    ],
  );
  const [callerCode, calleeCode] = await Promise.all([exited(caller), exited(callee)]);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const stats = await sip.mediaStats();
  const report = await sink.report();
  counter.stop();
  await sip.close();
  await engine.close();
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / wall) * 100;
  return {
    answeredLegs: counter.answered,
    peakLegs: counter.peak,
    cpuPercent,
    cpuPerLeg: counter.mean === 0 ? 0 : cpuPercent / counter.mean,
    media: stats,
    sink: report,
    callerCode,
    calleeCode,
  };
}

export function printBridged(r: BridgedResult, floorCpuPerCall: number): void {
  console.log(
    `bridged  ${BRIDGED} calls = ${r.answeredLegs}/${2 * BRIDGED} legs answered (sipp exits ${r.callerCode}/${r.calleeCode}), ` +
      `peak ${r.peakLegs} concurrent legs, CPU ${r.cpuPercent.toFixed(0)} % of one core = ${r.cpuPerLeg.toFixed(3)} % per leg ` +
      `(${(r.cpuPerLeg / Math.max(1e-9, floorCpuPerCall)).toFixed(2)} x the floor's per call); ` +
      `tick lateness p99 ${r.media.latenessP99.toFixed(1)} ms max ${r.media.latenessMax.toFixed(1)} ms ` +
      `(work per tick p99 ${r.media.tickWorkP99.toFixed(1)} ms max ${r.media.tickWorkMax.toFixed(1)} ms); ` +
      `inter-arrival p99.9 at the receivers ${r.sink.p999.toFixed(1)} ms (${r.sink.lost} lost of ${r.sink.packets}, ${r.sink.streams} streams), ` +
      `at the engine ${r.media.interArrivalP999.toFixed(1)} ms (${r.media.packetsLost} lost of ${r.media.packetsReceived})`,
  );
  const met =
    BRIDGED >= 250 &&
    r.answeredLegs === 2 * BRIDGED &&
    r.sink.lost === 0 &&
    r.sink.p999 < 40 &&
    r.cpuPercent <= 100;
  console.log(
    `  goal, >= 250 bridged calls on one core with inter-arrival p99.9 under 40 ms at the receivers and none lost: ${met ? 'met' : 'not met'}` +
      ` (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; a loaded machine delays the ticks, see docs/telephony.md)`,
  );
}
