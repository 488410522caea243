import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { formatTrace } from '../../sim/format.js';
import { parseScenario, ScenarioError } from '../../sim/load.js';
import { runScenario } from '../../sim/runner.js';

/** Why a scenario file could not be read, in words. */
function readFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}

/**
 * Registers `rcml simulate`: runs a scenario file on the virtual clock and prints its trace.
 * Exit status: 1 for an invalid scenario, 2 for usage errors (no argument, unreadable file).
 */
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
        process.stderr.write(`rcml simulate: cannot read ${file}: ${readFailure(err)}\n`);
        process.exitCode = 2;
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
