import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../src/cli/program.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const VERSION: string = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'),
).version;
const MISSING = join(import.meta.dirname, 'no-such-file.json');

/** Runs the program in process; returns what it wrote and how it ended. */
async function run(args: string[]): Promise<{ out: string; err: string; exit: number | undefined }> {
  let out = '';
  let err = '';
  const program = createProgram();
  for (const command of [program, ...program.commands]) {
    command.configureOutput({
      writeOut: (s) => {
        out += s;
      },
      writeErr: (s) => {
        err += s;
      },
    });
  }
  // Commands print their own outcome on the process streams.
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out += String(s);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err += String(s);
    return true;
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { out, err, exit: process.exitCode === undefined ? undefined : Number(process.exitCode) };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { out, err, exit: error.exitCode };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('rcml program', () => {
  it('names itself and describes its purpose in --help', () => {
    const help = createProgram().helpInformation();
    expect(help).toMatch(/^Usage: rcml /);
    expect(help).toContain('RCML engine');
    expect(help).toContain('-V, --version');
  });

  it.each(['--version', '-V'])('%s prints the package version and exits 0', async (flag) => {
    expect(await run([flag])).toEqual({ out: `${VERSION}\n`, err: '', exit: 0 });
  });

  it('prints the version from the installed binary too', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, '-V'], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([0, `${VERSION}\n`]);
  });

  it.each([
    [['validate'], 'validate', "missing required argument 'files'"],
    [['validate', '--max-bytes', '0', 'a.xml'], 'validate', 'expected a positive whole number'],
    [['validate', MISSING], 'validate', 'no such file'],
    [['simulate'], 'simulate', "missing required argument 'scenario'"],
    [['simulate', MISSING], 'simulate', 'no such file'],
    [['compile', MISSING], 'compile', 'no such file'],
    [['compile', 'x.json', '--param', 'novalue'], 'compile', 'expected name=value'],
    [['lint', MISSING], 'lint', 'no such file'],
    [['lint', 'a', 'b'], 'lint', 'too many arguments'],
    [['graph', MISSING], 'graph', 'no such file'],
    [['graph', 'x.json', '--bogus'], 'graph', "unknown option '--bogus'"],
    [['serve', '--seed', '3'], 'serve', '--seed needs --clock virtual'],
    [['serve', '--number', '+15550100'], 'serve', 'give one'],
    [['serve', '--project', MISSING], 'serve', 'no such file'],
    [['serve', '--port', 'http'], 'serve', "'--port <port>' argument 'http' is invalid"],
  ])(
    'a usage error of %j prints the error, then the one-line usage of rcml %s and its --help',
    async (args, command, message) => {
      const { err, exit } = await run(args);
      // 2 when the command finds it; commander's own errors end with 1, which main.ts exits as 2.
      const foundByCommander = /missing required|is invalid|unknown option|too many|expected/.test(message);
      expect(exit).toBe(foundByCommander ? 1 : 2);
      expect(err).toContain(message);
      expect(err.indexOf(`Usage: rcml ${command} `)).toBeGreaterThan(err.indexOf(message));
      expect(err).toContain(`Run 'rcml ${command} --help' for every option.`);
      // Not the whole option list: the error stays in sight.
      expect(err).not.toContain('Options:');
      expect(err.trim().split('\n').length).toBeLessThanOrEqual(4);
    },
  );
});
