import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { parseScenario, ScenarioError } from '../../sim/load.js';
import { checkCallFlow, varyFromSpec } from '../../testing/check.js';
import { propertiesFromSpec } from '../../testing/properties.js';

function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min) throw new InvalidArgumentError(`expected a whole number >= ${min}`);
    return n;
  };
}

/**
 * Registers `rcml check`: varies a scenario as its `check` section says and checks its
 * properties on every run. Exit status: 0 all held, 1 a property failed (the shrunk scenario is
 * written and its path printed), 2 usage errors, unreadable or invalid scenario files.
 */
export function registerCheck(program: Command): void {
  program
    .command('check')
    .description("vary a scenario as its 'check' section says and check its properties on every run")
    .argument('<scenario>', 'scenario JSON file with a check section (see docs/testing.md)')
    .option('--runs <n>', 'scenarios to try (default: check.runs, else 100)', wholeNumber(1))
    .option('--seed <s>', 'seed of the generation (default: check.seed, else random)', wholeNumber(0))
    .option('--out <file>', 'where to write the shrunk scenario (default: <scenario>.counterexample.json)')
    .action(async (file: string, options: { runs?: number; seed?: number; out?: string }) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(err);
        process.stderr.write(`rcml check: cannot read ${file}: ${why}\n`);
        process.exitCode = 2;
        return;
      }
      let scenario: ReturnType<typeof parseScenario>;
      try {
        scenario = parseScenario(text, file);
      } catch (err) {
        if (!(err instanceof ScenarioError)) throw err;
        process.stderr.write(`rcml check: ${file}: ${err.message}\n`);
        process.exitCode = 2;
        return;
      }
      const spec = scenario.check;
      if (!spec) {
        process.stderr.write(
          `rcml check: ${file}: no check section: $.check.properties names what to check\n`,
        );
        process.exitCode = 2;
        return;
      }
      const result = await checkCallFlow({
        scenario,
        vary: varyFromSpec(spec.vary, scenario),
        properties: propertiesFromSpec(spec.properties),
        runs: options.runs ?? spec.runs,
        seed: options.seed ?? spec.seed,
        out: options.out ?? `${file.replace(/\.json$/i, '')}.counterexample.json`,
      });
      process.stdout.write(result.report);
      if (!result.ok) process.exitCode = 1;
    });
}
