import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { compileProject, ProjectError, parseJson } from '../../designer/index.js';

/** Output of a designer command: what to print and the exit code. */
export interface CommandOutcome {
  stdout: string;
  stderr: string;
  /** 0 ok, 1 the project has errors, 2 the file could not be read or parsed. */
  exitCode: 0 | 1 | 2;
}

/** Reads a project file as JSON; a syntax error names its line and column. */
export async function readProjectJson(
  file: string,
): Promise<{ ok: true; json: unknown } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(error);
    return { ok: false, error: `cannot read ${file}: ${why}` };
  }
  const parsed = parseJson(text);
  if (parsed.ok) return { ok: true, json: parsed.value };
  const { line, column, message } = parsed.error;
  return { ok: false, error: `${file}:${line}:${column}: invalid JSON: ${message}` };
}

function param(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected name=value, got "${value}"`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/** Options of `rcml compile`. */
export interface CompileCommandOptions {
  target?: string;
  param?: Record<string, string>;
  esBaseUrl?: string;
}

/** Renders one target of a project file to RCML. */
export async function compileCommand(
  file: string,
  opts: CompileCommandOptions = {},
): Promise<CommandOutcome> {
  const read = await readProjectJson(file);
  if (!read.ok) return { stdout: '', stderr: `rcml compile: ${read.error}\n`, exitCode: 2 };
  try {
    const options = opts.esBaseUrl ? { esBaseUrl: opts.esBaseUrl } : {};
    const app = compileProject(read.json, options);
    const result = await app.render(opts.target ?? '', opts.param ?? {});
    const stderr = result.error ? `rcml compile: ${result.error.code}: ${result.error.message}\n` : '';
    return { stdout: `${result.xml}\n`, stderr, exitCode: result.error ? 1 : 0 };
  } catch (error) {
    if (error instanceof ProjectError) {
      const lines = error.problems.map((p) => `${file}: ${p.path}: ${p.message}\n`).join('');
      return { stdout: '', stderr: lines, exitCode: 1 };
    }
    throw error;
  }
}

/** Registers `rcml compile`. */
export function registerCompile(program: Command): void {
  program
    .command('compile')
    .description('render a Visual Designer project target to RCML')
    .argument('<project>', 'project JSON (the `state` file), any format version')
    .option('-t, --target <target>', 'module[.step[.action]] (default: the start module)')
    .option('-p, --param <name=value>', 'request parameter (repeatable)', param)
    .option('--es-base-url <url>', 'base URL for relative external-service URLs')
    .action(async (file: string, opts: CompileCommandOptions) => {
      const outcome = await compileCommand(file, opts);
      process.stdout.write(outcome.stdout);
      process.stderr.write(outcome.stderr);
      process.exitCode = outcome.exitCode;
    });
}
