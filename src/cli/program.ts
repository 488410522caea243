import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerAccount } from './commands/account.js';
import { registerCheck } from './commands/check.js';
import { registerCompile } from './commands/compile.js';
import { registerEnterprise } from './commands/enterprise.js';
import { registerGraph } from './commands/graph.js';
import { registerLint } from './commands/lint.js';
import { registerLoad } from './commands/load.js';
import { registerPrune } from './commands/prune.js';
import { registerServe } from './commands/serve.js';
import { registerSimulate } from './commands/simulate.js';
import { registerValidate } from './commands/validate.js';

/** The package's version, read from package.json (two levels up from both src/cli and dist/cli). */
export const packageVersion: string = createRequire(import.meta.url)('../../package.json').version;

/** Exit status of a usage error, whether commander or the command itself finds it. */
export const USAGE_EXIT_CODE = 2;

/** `rcml serve`, `rcml account rotate-token`: the command as typed. */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * What follows a usage error: the command's one-line usage (what a missing argument needs) and
 * where every option is described, not the whole option list.
 */
function usageHint(command: Command): string {
  const path = pathOf(command);
  return `Usage: ${path} ${command.usage()}\nRun '${path} --help' for every option.`;
}

/** Sets the usage hint on a command and on each of its sub-commands. */
function hintAfterErrors(command: Command): void {
  command.showHelpAfterError(usageHint(command));
  for (const sub of command.commands) hintAfterErrors(sub);
}

/**
 * Builds the `rcml` command. Each sub-command lives in its own file under `commands/`.
 * A usage error prints the error, then the one-line usage of the command it concerns and the
 * `--help` that lists its options: commander does this for its own errors (missing argument,
 * unknown option, invalid value), and a command that finds one itself (an unreadable file) ends
 * with exit code 2, after which the same lines are printed.
 */
export function createProgram(): Command {
  const program = new Command('rcml')
    .description(
      'RCML engine: validate RCML, compile Visual Designer projects, simulate calls, serve the REST API',
    )
    .version(packageVersion, '-V, --version', 'print the version')
    .exitOverride();
  registerValidate(program);
  registerSimulate(program);
  registerCheck(program);
  registerLoad(program);
  registerCompile(program);
  registerLint(program);
  registerGraph(program);
  registerServe(program);
  registerPrune(program);
  registerEnterprise(program);
  registerAccount(program);
  hintAfterErrors(program);
  program.hook('postAction', (_program, command) => {
    if (process.exitCode !== USAGE_EXIT_CODE) return;
    command.configureOutput().writeErr?.(`${usageHint(command)}\n`);
  });
  return program;
}
