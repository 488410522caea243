import { type Command, InvalidArgumentError } from 'commander';
import { lintRcml, parseRcml } from '../../rcml/index.js';
import { readText } from './outcome.js';

/** What `rcml validate` prints and the exit code it ends with. */
export interface ValidateOutcome {
  /** `file:line:col severity code message`, one per diagnostic. */
  lines: string[];
  /** Problems that are not diagnostics (unreadable files). */
  errors: string[];
  /** 0 no errors, 1 a document has errors (or, strict, warnings), 2 a file could not be read. */
  exitCode: 0 | 1 | 2;
}

/** Validates each file as RCML; `strict` counts warnings (an unknown verb...) as errors. */
export async function validateFiles(
  files: string[],
  maxBytes?: number,
  strict = false,
): Promise<ValidateOutcome> {
  const outcome: ValidateOutcome = { lines: [], errors: [], exitCode: 0 };
  let failed = false;
  for (const file of files) {
    const read = await readText(file);
    if (!read.ok) {
      outcome.errors.push(`rcml validate: ${read.error}`);
      continue;
    }
    const result = parseRcml(read.text, maxBytes === undefined ? {} : { maxBytes });
    if (!result.ok) failed = true;
    const advice = result.ok ? lintRcml(result.document) : [];
    const all = [...result.diagnostics, ...advice].sort((a, b) => a.line - b.line || a.column - b.column);
    if (strict && all.length > 0) failed = true;
    for (const d of all) {
      outcome.lines.push(`${file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);
    }
  }
  outcome.exitCode = outcome.errors.length > 0 ? 2 : failed ? 1 : 0;
  return outcome;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError('expected a positive whole number of bytes');
  return n;
}

/** Registers `rcml validate <file.xml...>`. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check RCML documents; prints file:line:col severity code message per problem')
    .argument('<files...>', 'RCML documents to check')
    .option('--max-bytes <n>', 'largest accepted document in bytes (default 1 MiB)', positiveInt)
    .option(
      '--strict',
      'count warnings (an unknown verb such as <Sey>, a skipped attribute) as errors: exit 1',
    )
    .action(async (files: string[], opts: { maxBytes?: number; strict?: boolean }) => {
      const outcome = await validateFiles(files, opts.maxBytes, opts.strict);
      for (const line of outcome.lines) process.stdout.write(`${line}\n`);
      for (const line of outcome.errors) process.stderr.write(`${line}\n`);
      process.exitCode = outcome.exitCode;
    });
}
