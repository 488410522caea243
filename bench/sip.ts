/**
 * Real calls over SIP on loopback, driven by SIPp: each call INVITEs with PCMA, hears a spoken
 * prompt (our RTP to a sink process measuring inter-arrival and loss), streams an A-law tone
 * for the whole call (SIPp's `rtp_stream`, a few threads for all calls, where playing a capture
 * takes a thread per call; its audio recorded by us) and hangs up after 7.5 s. Two runs of the
 * same SIPp load: the floor, a minimal answering script on the SIP stack and media worker
 * alone, then the engine running an IVR document (Say, Record) for every call. Prints calls/s
 * answered, peak concurrent calls, node CPU (whole process, media worker included) per call,
 * the pacing loop's lateness p99/max and the receivers' inter-arrival p99.9. A third run
 * bridges calls: each SIPp caller's document Dials a second SIPp (`sip-bridged.ts`).
 *
 * Goals: >= 500 concurrent two-way G.711 calls on one core with inter-arrival p99.9 < 40 ms and
 * 0 lost packets; >= 100 new calls/s. RCML_BENCH_SIP_CALLS (default 800) and
 * RCML_BENCH_SIP_RATE (calls/s, default 100) change the load; RCML_BENCH_SIP_PHASES (default
 * `conference,floor,engine,bridged`) which runs are made.
 *
 * `conference` (`conference-mix.ts`): the work of one tick for rooms of 50 and 200 members
 * beside the same calls in no room; goal: a 50-member room within the 20 ms tick at p99.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/engine/engine.js';
import { MediaHost } from '../src/telephony/media/host.js';
import type { MediaStats } from '../src/telephony/media/protocol.js';
import { openSipEndpoint } from '../src/telephony/sip/endpoint.js';
import { SipCall } from '../src/telephony/sip-call.js';
import { startSipService } from '../src/telephony/sip-service.js';
import { createEspeakTts } from '../src/telephony/tts/espeak.js';
import * as S from '../test/support/sipp-scenarios.js';
import { measureConferenceMix, printConferenceMix } from './conference-mix.js';
import { BRIDGED, BRIDGED_HOLD_S, bridgedPhase, printBridged, streamedTone } from './sip-bridged.js';

const CALLS = Number(process.env.RCML_BENCH_SIP_CALLS ?? 800);
const RATE = Number(process.env.RCML_BENCH_SIP_RATE ?? 100);
const PROMPT = 'Welcome to the benchmark line. Please leave a message after this prompt.';
/** Which runs to make, in order (`floor` always runs: the others are read against it). */
const PHASES = new Set((process.env.RCML_BENCH_SIP_PHASES ?? 'conference,floor,engine,bridged').split(','));

interface SinkReport {
  packets: number;
  lost: number;
  streams: number;
  p999: number;
  p99: number;
}

/** The sink process and a way to ask it for its figures. */
async function startSink(): Promise<{ port: number; report(): Promise<SinkReport>; stop(): void }> {
  const child = fork(join(import.meta.dirname, 'sip-sink.ts'), [], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m: { port: number }) => resolve(m.port)),
  );
  return {
    port,
    report: () =>
      new Promise((resolve) => {
        child.once('message', (m: SinkReport) => resolve(m));
        child.send('report');
      }),
    stop: () => child.send('stop'),
  };
}

/** Counts answered and live calls, sampling concurrency every 100 ms. */
class CallCounter {
  answered = 0;
  live = 0;
  peak = 0;
  firstAnswer = 0;
  lastAnswer = 0;
  private samples = 0;
  private sum = 0;
  private readonly timer = setInterval(() => {
    this.samples++;
    this.sum += this.live;
  }, 100);

  answer(): void {
    const now = performance.now();
    if (this.answered === 0) this.firstAnswer = now;
    this.lastAnswer = now;
    this.answered++;
    this.live++;
    this.peak = Math.max(this.peak, this.live);
  }

  end(): void {
    this.live--;
  }

  get mean(): number {
    return this.samples === 0 ? 0 : this.sum / this.samples;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function sipp(target: string, sinkPort: number): ChildProcess {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-bench-sipp-'));
  const file = join(dir, 'scenario.xml');
  writeFileSync(
    file,
    S.scenario(
      'bench',
      `${S.answered({ payloads: '8 101' })}${streamedTone()}${S.pause(7500)}${S.sendBye()}`,
    ),
  );
  return spawn(
    'sipp',
    [
      '-sf',
      file,
      target,
      '-i',
      '127.0.0.1',
      '-p',
      '35061',
      '-mp',
      '35100',
      '-m',
      String(CALLS),
      '-r',
      String(RATE),
      '-l',
      String(CALLS),
      '-s',
      '15550100',
      '-key',
      'sinkport',
      String(sinkPort),
      '-key',
      'caller',
      'bench',
      '-nostdin',
      '-timeout',
      '120s',
      '-trace_stat',
      '-stf',
      join(dir, 'stats.csv'),
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

interface PhaseResult {
  name: string;
  answered: number;
  rate: number;
  peak: number;
  cpuPerCall: number;
  cpuPercent: number;
  media: MediaStats;
  sink: SinkReport;
  sippCode: number | null;
}

async function phase(
  name: string,
  sink: Awaited<ReturnType<typeof startSink>>,
  start: (
    counter: CallCounter,
  ) => Promise<{ port: number; stats(): Promise<MediaStats>; close(): Promise<void> }>,
): Promise<PhaseResult> {
  const counter = new CallCounter();
  const server = await start(counter);
  await server.stats();
  await sink.report();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const child = sipp(`127.0.0.1:${server.port}`, sink.port);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const media = await server.stats();
  const report = await sink.report();
  counter.stop();
  await server.close();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const cpuPercent = (cpuMs / wall) * 100;
  return {
    name,
    answered: counter.answered,
    rate: counter.answered / Math.max(0.001, (counter.lastAnswer - counter.firstAnswer) / 1000),
    peak: counter.peak,
    cpuPercent,
    cpuPerCall: counter.mean === 0 ? 0 : cpuPercent / counter.mean,
    media,
    sink: report,
    sippCode: code,
  };
}

/** The floor: the SIP stack and media worker answering every call, no engine. */
function floor(prompt: Int16Array) {
  return async (counter: CallCounter) => {
    const media = new MediaHost({ ports: { min: 40000, max: 49999 } });
    const endpoint = await openSipEndpoint({
      port: 0,
      async onInvite(server) {
        const call = SipCall.inbound(server, media, '127.0.0.1');
        call.onEnd = () => counter.end();
        call.ring();
        await call.answer();
        counter.answer();
        await call.play(prompt, 1);
        const recording = call.record(5000, 0);
        await recording?.done;
      },
    });
    return {
      port: endpoint.port,
      stats: () => media.stats(),
      close: async () => {
        await endpoint.close();
        await media.close();
      },
    };
  };
}

/** The engine: an IVR document (Say, Record) for every call. */
function withEngine(tts: ReturnType<typeof createEspeakTts>) {
  return async (counter: CallCounter) => {
    const engine = createEngine({
      clock: 'real',
      retainCalls: false,
      onEvent: (event) => {
        if (event.type !== 'call-status') return;
        if (event.status === 'in-progress') counter.answer();
        else if (event.status === 'completed') counter.end();
      },
    });
    engine.registerHandler('http://bench.test/', () => ({
      status: 200,
      contentType: 'application/xml',
      body: `<Response><Say>${PROMPT}</Say><Record maxLength="5" playBeep="false" timeout="10"/></Response>`,
    }));
    engine.setNumber('+15550100', { voiceUrl: 'http://bench.test/ivr' });
    const sip = await startSipService({ calls: engine, port: 0, rtpPorts: { min: 40000, max: 49999 }, tts });
    return {
      port: sip.port,
      stats: () => sip.mediaStats(),
      close: async () => {
        await sip.close();
        await engine.close();
      },
    };
  };
}

function print(r: PhaseResult): void {
  console.log(
    `${r.name.padEnd(8)} answered ${r.answered}/${CALLS} (sipp exit ${r.sippCode}), ${r.rate.toFixed(0)} calls/s, ` +
      `peak ${r.peak} concurrent, CPU ${r.cpuPercent.toFixed(0)} % of one core = ${r.cpuPerCall.toFixed(3)} % per call; ` +
      `tick lateness p99 ${r.media.latenessP99.toFixed(1)} ms max ${r.media.latenessMax.toFixed(1)} ms ` +
      `(work per tick p99 ${r.media.tickWorkP99.toFixed(1)} ms max ${r.media.tickWorkMax.toFixed(1)} ms); ` +
      `inter-arrival p99.9 at the callers ${r.sink.p999.toFixed(1)} ms (${r.sink.lost} lost of ${r.sink.packets}), ` +
      `at the engine ${r.media.interArrivalP999.toFixed(1)} ms (${r.media.packetsLost} lost of ${r.media.packetsReceived})`,
  );
}

/**
 * The IVR goal: >= 500 concurrent calls on one core, >= 100 new calls/s, our audio heard at the
 * callers with inter-arrival p99.9 under 40 ms and nothing lost. (SIPp's own stream into the
 * engine is paced by SIPp: its figure is printed, not judged.)
 */
function printGoal(r: PhaseResult): void {
  const met =
    r.peak >= 500 &&
    Math.round(r.rate) >= 100 &&
    r.answered === CALLS &&
    r.sink.lost === 0 &&
    r.sink.p999 < 40 &&
    r.cpuPercent <= 100;
  console.log(
    `  goal, >= 500 concurrent calls and >= 100 calls/s on one core, p99.9 under 40 ms at the callers, none lost: ${met ? 'met' : 'not met'}` +
      ` (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
}

export async function run(): Promise<void> {
  if (PHASES.has('conference')) printConferenceMix(measureConferenceMix());
  if (!['floor', 'engine', 'bridged'].some((name) => PHASES.has(name))) return;
  const tts = createEspeakTts({ cacheDir: mkdtempSync(join(tmpdir(), 'rcml-bench-tts-')) });
  const prompt = await tts.synthesize({ text: PROMPT, voice: 'man', language: 'en' });
  const sink = await startSink();
  console.log(
    `${CALLS} SIPp calls at ${RATE}/s, 7.5 s each, PCMA both ways; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`,
  );
  try {
    const base = await phase('floor', sink, floor(prompt));
    print(base);
    if (PHASES.has('engine')) {
      const full = await phase('engine', sink, withEngine(tts));
      print(full);
      printGoal(full);
      console.log(
        `ratio engine/floor: CPU per call ${(full.cpuPerCall / Math.max(1e-9, base.cpuPerCall)).toFixed(2)}, ` +
          `calls/s ${(full.rate / Math.max(1e-9, base.rate)).toFixed(2)}`,
      );
    }
    if (PHASES.has('bridged')) {
      console.log(
        `${BRIDGED} bridged calls at ${RATE}/s, two legs each, ${BRIDGED_HOLD_S} s each, PCMA both ways`,
      );
      printBridged(await bridgedPhase(sink, new CallCounter(), tts, RATE), base.cpuPerCall);
    }
  } finally {
    sink.stop();
  }
}
