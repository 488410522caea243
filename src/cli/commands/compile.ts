import { type Command, InvalidArgumentError } from 'commander';
import { compileProject, ProjectError } from '../../designer/index.js';
import { redactUrl } from '../../engine/fetcher.js';
import { type CommandOutcome, printOutcome, readProjectJson } from './outcome.js';

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
    const stderr = result.error
      ? `rcml compile: ${result.error.code}: ${redactUrl(result.error.message)}\n`
      : '';
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
    .action(async (file: string, opts: CompileCommandOptions) =>
      printOutcome(await compileCommand(file, opts)),
    );
}
