import { Command } from 'commander';
import { registerCompile } from './commands/compile.js';
import { registerGraph } from './commands/graph.js';
import { registerLint } from './commands/lint.js';
import { registerServe } from './commands/serve.js';
import { registerSimulate } from './commands/simulate.js';
import { registerValidate } from './commands/validate.js';

/** Builds the `rcml` command. Each sub-command lives in its own file under `commands/`. */
export function createProgram(): Command {
  const program = new Command('rcml')
    .description(
      'RCML engine: validate RCML, compile Visual Designer projects, simulate calls, serve the REST API',
    )
    .showHelpAfterError()
    .exitOverride();
  registerValidate(program);
  registerSimulate(program);
  registerCompile(program);
  registerLint(program);
  registerGraph(program);
  registerServe(program);
  return program;
}
