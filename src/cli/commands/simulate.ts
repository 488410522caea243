import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { formatTrace } from '../../sim/format.js';
import { parseScenario, ScenarioError } from '../../sim/load.js';
import { runScenario } from '../../sim/runner.js';

/** Registers `rcml simulate`: runs a scenario file on the virtual clock and prints its trace. */
export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('run a scenario file on the virtual clock and print the trace')
    .argument('<scenario>', 'scenario JSON file (see docs/scenario.md)')
    .option('--json', 'print the trace as JSON instead of a timeline')
    .action(async (file: string, options: { json?: boolean }) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        process.stderr.write(`rcml simulate: cannot read ${file}: ${(err as Error).message}\n`);
        process.exitCode = 1;
        return;
      }
      try {
        const trace = await runScenario(parseScenario(text, file));
        process.stdout.write(options.json ? JSON.stringify(trace, null, 2) + '\n' : formatTrace(trace));
      } catch (err) {
        if (!(err instanceof ScenarioError)) throw err;
        process.stderr.write(`rcml simulate: ${file}: ${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
