import type { Command } from 'commander';
import { lintProject } from '../../designer/index.js';
import { type CommandOutcome, printOutcome, readProjectJson } from './outcome.js';

/** Lints a project file: one `file: severity code path: message` line per finding. */
export async function lintCommand(file: string): Promise<CommandOutcome> {
  const read = await readProjectJson(file);
  if (!read.ok) return { stdout: '', stderr: `rcml lint: ${read.error}\n`, exitCode: 2 };
  const { diagnostics } = lintProject(read.json);
  const stdout = diagnostics
    .map((d) => `${file}: ${d.severity} ${d.code} ${d.path}: ${d.message}\n`)
    .join('');
  return { stdout, stderr: '', exitCode: diagnostics.some((d) => d.severity === 'error') ? 1 : 0 };
}

/** Registers `rcml lint`. */
export function registerLint(program: Command): void {
  program
    .command('lint')
    .description('check a Visual Designer project for dangling targets, unreachable modules, bad regexes...')
    .argument('<project>', 'project JSON (the `state` file), any format version')
    .action(async (file: string) => printOutcome(await lintCommand(file)));
}
