/**
 * The SIP tools the telephony tests call on loopback (Debian: sip-tester, baresip, espeak-ng,
 * sox). Without one, its tests skip with one line naming it; in CI (`CI=true`) a missing tool
 * fails the run instead, so CI never goes green without them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const PACKAGES: Record<string, string> = {
  sipp: 'sip-tester',
  baresip: 'baresip',
  'espeak-ng': 'espeak-ng',
  sox: 'sox',
};

/** An executable of that name on the PATH (looked up in the file system: no process to fail). */
function installed(tool: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Undefined when every tool is there; otherwise the reason to skip, printed once. With
 * `CI=true` it throws, so the test file fails.
 */
export function missingTools(...tools: string[]): string | undefined {
  const missing = tools.filter((t) => !installed(t));
  if (missing.length === 0) return undefined;
  const reason = `SIP tests skipped: ${missing.join(', ')} not installed (apt-get install ${missing.map((t) => PACKAGES[t] ?? t).join(' ')})`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI needs them`);
  console.warn(reason);
  return reason;
}

/** Where SIPp's Debian package keeps its RFC 2833 and G.711 captures. */
export const SIPP_PCAPS = '/usr/share/sip-tester';

export const havePcaps = (): boolean => existsSync(join(SIPP_PCAPS, 'dtmf_2833_1.pcap'));

export interface SippRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The `-trace_msg` log: every message sent and received. */
  messages: string;
}

/**
 * Runs one SIPp scenario (XML text) against `target` for `calls` calls; resolves when SIPp
 * exits (exit code 0: every call went as the scenario says).
 */
/** SIPp's exit code when it cannot bind one of its ports (taken by another process meanwhile). */
const SIPP_BIND_FAILED = 254;

export function runSipp(
  scenario: string,
  target: string,
  options: {
    calls?: number;
    rate?: number;
    keys?: Record<string, string | number>;
    service?: string;
    extra?: string[];
    /** Its SIP port (a callee the test calls); default one drawn at random. */
    port?: number;
  } = {},
): { done: Promise<SippRun> } {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-sipp-'));
  const file = join(dir, 'scenario.xml');
  writeFileSync(file, scenario);
  // Its SIP and media ports are drawn at random: a port taken meanwhile gets another draw.
  const once = (): Promise<SippRun> => {
    const args = [
      '-sf',
      file,
      target,
      '-i',
      '127.0.0.1',
      '-p',
      String(options.port ?? 30000 + Math.floor(Math.random() * 5000) * 2 + 1),
      '-mp',
      String(40000 + Math.floor(Math.random() * 10000) * 2),
      '-m',
      String(options.calls ?? 1),
      '-r',
      String(options.rate ?? 10),
      '-s',
      options.service ?? '15550100',
      '-nostdin',
      '-trace_msg',
      '-message_file',
      join(dir, 'messages.log'),
      '-timeout',
      '30s',
      '-timeout_error',
      ...Object.entries(options.keys ?? {}).flatMap(([k, v]) => ['-key', k, String(v)]),
      ...(options.extra ?? []),
    ];
    const child: ChildProcess = spawn('sipp', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    return new Promise<SippRun>((resolve) => {
      child.once('exit', async (code) => {
        const messages = await readFile(join(dir, 'messages.log'), 'latin1').catch(() => '');
        resolve({ code, stdout, stderr, messages });
      });
    });
  };
  const done = (async () => {
    for (let attempt = 1; ; attempt++) {
      const run = await once();
      if (run.code !== SIPP_BIND_FAILED || attempt >= 3) return run;
    }
  })();
  return { done };
}
