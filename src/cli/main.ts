#!/usr/bin/env node
import { CommanderError } from 'commander';
import { createProgram } from './program.js';

/**
 * Usage errors exit 2 (commander has already printed the error and the command's usage);
 * `--version` and `--help` exit 0; commands set their own exit codes otherwise.
 */
async function main(): Promise<void> {
  const program = createProgram();
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`rcml: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  }
}

await main();
