import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { PartyBehaviour } from '../../engine/types.js';
import type { LoadProgress } from '../../load/harness.js';
import { runLoad } from '../../load/harness.js';
import { loadReportHtml } from '../../load/html.js';
import { formatLoadReport } from '../../load/report.js';
import {
  checkThresholds,
  formatThresholdResult,
  type LoadThreshold,
  parseThreshold,
  THRESHOLD_METRICS,
} from '../../load/thresholds.js';
import { parseScenario, ScenarioError } from '../../sim/load.js';
import { partySchema } from '../../sim/schema.js';
import { readText } from './outcome.js';

function number(min: number, whole: boolean): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || (whole && !Number.isInteger(n)))
      throw new InvalidArgumentError(`expected a${whole ? ' whole' : ''} number >= ${min}`);
    return n;
  };
}

function party(value: string): PartyBehaviour {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('expected a party as JSON, e.g. {"digits":[{"at":1,"keys":"1"}]}');
  }
  const parsed = partySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidArgumentError(`$.${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** One line of progress: a bar when the total is known, the figures so far. */
function progressLine(p: LoadProgress): string {
  const width = 24;
  const bar =
    p.total === undefined
      ? ''
      : `[${'#'.repeat(Math.round((p.ended / p.total) * width)).padEnd(width, '.')}] `;
  return `\r${bar}${p.started} started, ${p.ended} ended, ${p.callsPerSecond.toFixed(0)} calls/s, p99 ${p.p99.toFixed(1)} ms, ${p.errors} errors   `;
}

function threshold(value: string, previous: LoadThreshold[] = []): LoadThreshold[] {
  try {
    return [...previous, parseThreshold(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

interface LoadCommandOptions {
  calls?: number;
  concurrency: number;
  rate?: number;
  duration?: number;
  clock: 'real' | 'virtual';
  direction: 'inbound' | 'outbound';
  number?: string;
  method?: 'GET' | 'POST';
  timeout: number;
  connections?: number;
  party?: PartyBehaviour;
  scenario?: string;
  json?: boolean;
  html?: string;
  threshold?: LoadThreshold[];
}

/**
 * Registers `rcml load`: drives calls against an application's voice URL and reports calls/s,
 * webhook latency, errors and final statuses. Exit status: 0 done, 1 a `--threshold` failed,
 * 130 interrupted by SIGINT (the report is still written), 2 usage errors.
 */
export function registerLoad(program: Command): void {
  program
    .command('load')
    .description('drive calls against an RCML application over HTTP and report its latency and throughput')
    .argument('<voice-url>', 'the voice URL of the application (its first document)')
    .option('--calls <n>', 'calls to start (default 100 without --duration)', number(1, true))
    .option('--concurrency <c>', 'most calls live at once', number(1, true), 50)
    .option(
      '--rate <r>',
      'arrivals per second (default: as fast as --concurrency allows)',
      number(0.001, false),
    )
    .option('--duration <s>', 'seconds during which calls start', number(0.001, false))
    .addOption(
      new Option('--clock <clock>', 'real: wall time; virtual: time moves when no request is in flight')
        .choices(['real', 'virtual'])
        .default('real'),
    )
    .addOption(
      new Option('--direction <d>', 'inbound calls to --number, or outbound (POST Calls)')
        .choices(['inbound', 'outbound'])
        .default('inbound'),
    )
    .option('--number <n>', 'number called (inbound) or calling (outbound)')
    .addOption(new Option('--method <m>', 'method of the voice URL').choices(['GET', 'POST']))
    .option('--timeout <ms>', 'request timeout in ms', number(1, true), 10_000)
    .option('--connections <n>', 'HTTP connections per origin (default unlimited)', number(1, true))
    .option('--party <json>', 'callers\' behaviour, e.g. {"digits":[{"at":1,"keys":"1"}]}', party)
    .option(
      '--scenario <file>',
      "callers' behaviour from a scenario file: its parties in turn, else its defaultParty",
    )
    .option('--json', 'print the report as JSON')
    .option('--html <file>', 'also write a self-contained HTML report')
    .option(
      '--threshold <expr>',
      `pass/fail criterion, repeatable: <metric><op><number> such as p99<200 or errors==0 (exit 1 when one fails); metrics: ${THRESHOLD_METRICS.join(', ')}`,
      threshold,
    )
    .action(async (voiceUrl: string, options: LoadCommandOptions, command: Command) => {
      if (!URL.canParse(voiceUrl) || !/^https?:/i.test(voiceUrl)) {
        command.error(`error: <voice-url> must be an absolute http(s) URL, got '${voiceUrl}'`, {
          exitCode: 2,
        });
      }
      let behaviour: PartyBehaviour | ((i: number) => PartyBehaviour) | undefined = options.party;
      if (options.scenario) {
        const read = await readText(options.scenario);
        if (!read.ok) {
          process.stderr.write(`rcml load: ${read.error}\n`);
          process.exitCode = 2;
          return;
        }
        try {
          const s = parseScenario(read.text, options.scenario);
          const parties = Object.values(s.parties);
          behaviour = parties.length > 0 ? (i) => parties[i % parties.length]! : s.defaultParty;
        } catch (err) {
          if (!(err instanceof ScenarioError)) throw err;
          process.stderr.write(`rcml load: ${err.message}\n`);
          process.exitCode = 2;
          return;
        }
      }
      const abort = new AbortController();
      const onSigint = (): void => abort.abort();
      process.once('SIGINT', onSigint);
      const tty = process.stderr.isTTY === true;
      try {
        const report = await runLoad({
          voiceUrl,
          voiceMethod: options.method,
          calls: options.calls,
          concurrency: options.concurrency,
          rate: options.rate,
          duration: options.duration,
          clock: options.clock,
          direction: options.direction,
          number: options.number,
          party: behaviour,
          timeoutMs: options.timeout,
          http: options.connections ? { connections: options.connections } : undefined,
          signal: abort.signal,
          onProgress: tty ? (p) => process.stderr.write(progressLine(p)) : undefined,
        });
        if (tty) process.stderr.write('\n');
        if (options.html) await writeFile(options.html, loadReportHtml(report));
        const results = checkThresholds(report, options.threshold ?? []);
        const output = results.length > 0 ? { ...report, thresholds: results } : report;
        process.stdout.write(
          options.json ? `${JSON.stringify(output, null, 2)}\n` : formatLoadReport(report),
        );
        if (results.length > 0 && !options.json) {
          process.stdout.write(
            `\n  thresholds\n${results.map((r) => `    ${formatThresholdResult(r)}\n`).join('')}`,
          );
        }
        const failed = results.filter((r) => !r.ok);
        for (const r of failed) process.stderr.write(`rcml load: threshold ${formatThresholdResult(r)}\n`);
        if (report.interrupted) process.exitCode = 130;
        else if (failed.length > 0) process.exitCode = 1;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
}
