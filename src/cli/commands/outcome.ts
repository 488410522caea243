/** What the file commands share: reading their input and printing their outcome. */
import { readFile } from 'node:fs/promises';
import { parseJson } from '../../designer/index.js';

/** Output of a command: what to print and the exit code. */
export interface CommandOutcome {
  stdout: string;
  stderr: string;
  /** 0 ok, 1 the input has errors, 2 the file could not be read or parsed. */
  exitCode: 0 | 1 | 2;
}

/** Prints an outcome and sets the process's exit code from it. */
export function printOutcome(outcome: CommandOutcome): void {
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  process.exitCode = outcome.exitCode;
}

/** Reads a text file; an error says, in words, why the file could not be read. */
export async function readText(
  file: string,
): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  try {
    return { ok: true, text: await readFile(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(error);
    return { ok: false, error: `cannot read ${file}: ${why}` };
  }
}

/** Reads a project file as JSON; a syntax error names its line and column. */
export async function readProjectJson(
  file: string,
): Promise<{ ok: true; json: unknown } | { ok: false; error: string }> {
  const read = await readText(file);
  if (!read.ok) return read;
  const parsed = parseJson(read.text);
  if (parsed.ok) return { ok: true, json: parsed.value };
  const { line, column, message } = parsed.error;
  return { ok: false, error: `${file}:${line}:${column}: invalid JSON: ${message}` };
}
