import type { Command } from 'commander';
import { loadProject, projectGraph } from '../../designer/index.js';
import { type CommandOutcome, printOutcome, readProjectJson } from './outcome.js';

/** Prints a project's module graph as Mermaid flowchart text. */
export async function graphCommand(file: string): Promise<CommandOutcome> {
  const read = await readProjectJson(file);
  if (!read.ok) return { stdout: '', stderr: `rcml graph: ${read.error}\n`, exitCode: 2 };
  const loaded = loadProject(read.json);
  if (!loaded.ok) {
    const stderr = loaded.problems.map((p) => `${file}: ${p.path}: ${p.message}\n`).join('');
    return { stdout: '', stderr, exitCode: 1 };
  }
  return { stdout: projectGraph(loaded.project), stderr: '', exitCode: 0 };
}

/** Registers `rcml graph`. */
export function registerGraph(program: Command): void {
  program
    .command('graph')
    .description('print the module graph of a Visual Designer project as Mermaid')
    .argument('<project>', 'project JSON (the `state` file), any format version')
    .action(async (file: string) => printOutcome(await graphCommand(file)));
}
