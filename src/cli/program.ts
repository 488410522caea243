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

/**
 * Builds the `rcml` command. Each sub-command lives in its own file under `commands/`.
 * A usage error prints the error and then the usage of the command it concerns: commander does
 * this for its own errors (missing argument, unknown option, invalid value), and a command that
 * finds one itself (an unreadable file) ends with exit code 2, after which its usage is printed.
 */
export function createProgram(): Command {
  const program = new Command('rcml')
    .description(
      'RCML engine: validate RCML, compile Visual Designer projects, simulate calls, serve the REST API',
    )
    .version(packageVersion, '-V, --version', 'print the version')
    .showHelpAfterError()
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
  program.hook('postAction', (_program, command) => {
    if (process.exitCode !== USAGE_EXIT_CODE) return;
    const output = command.configureOutput();
    output.writeErr?.('\n');
    command.outputHelp({ error: true });
  });
  return program;
}
