import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { validateFiles } from '../../src/cli/commands/validate.js';
import { createProgram } from '../../src/cli/program.js';

const dir = mkdtempSync(join(tmpdir(), 'rcml-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, xml: string): string {
  const path = join(dir, name);
  writeFileSync(path, xml);
  return path;
}

describe('rcml validate', () => {
  const good = file('good.xml', '<Response><Say>hi</Say></Response>');
  const warn = file('warn.xml', '<Response>\n  <Say loop="x">hi</Say>\n</Response>');
  const bad = file('bad.xml', '<Response>\n  <Say>hi</Say>\n    <Enqueue> </Enqueue>\n</Response>');
  const nested = file('nested.xml', '<Response>\n  <Gather>\n    <Dial>1</Dial>\n  </Gather>\n</Response>');

  it('exits 0 and prints nothing for a clean document', async () => {
    expect(await validateFiles([good])).toEqual({ lines: [], errors: [], exitCode: 0 });
  });

  it('prints file:line:col severity code message; warnings alone exit 0', async () => {
    const outcome = await validateFiles([warn]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.lines).toEqual([
      `${warn}:2:8 warning 13510 invalid loop="x" on <Say>: expected a whole number >= 0; the default is used`,
    ]);
  });

  it('with strict, exits 1 on warnings: a misspelt verb, an invalid attribute', async () => {
    const sey = file('sey.xml', '<Response><Sey>Hi</Sey></Response>');
    expect((await validateFiles([sey])).exitCode).toBe(0);
    const strict = await validateFiles([sey], undefined, true);
    expect(strict.exitCode).toBe(1);
    expect(strict.lines).toEqual([
      `${sey}:1:11 warning rcml.unknown-verb unknown verb <Sey> (skipped at run time)`,
    ]);
    expect((await validateFiles([warn], undefined, true)).exitCode).toBe(1);
    expect((await validateFiles([good], undefined, true)).exitCode).toBe(0);
  });

  it('exits 1 when any file has errors', async () => {
    const outcome = await validateFiles([good, bad]);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.lines).toEqual([
      `${bad}:3:5 error rcml.required <Enqueue> needs the queue name as its text`,
    ]);
  });

  it('reports what the platform still runs (a misplaced verb) as a warning', async () => {
    const outcome = await validateFiles([nested]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.lines).toEqual([
      `${nested}:2:3 warning rcml.gather-no-action <Gather> has no action: the input is discarded and the next verb runs`,
      `${nested}:3:5 warning rcml.nesting <Dial> cannot be nested in <Gather> (skipped)`,
    ]);
  });

  it('warns that a Gather without action discards its input, and not when it has one', async () => {
    const withAction = file('with-action.xml', '<Response><Gather action="/menu" numDigits="1"/></Response>');
    expect((await validateFiles([withAction])).lines).toEqual([]);
    const without = file('without.xml', '<Response><Say>Hi</Say><Gather numDigits="1"/></Response>');
    const outcome = await validateFiles([without]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.lines).toEqual([
      `${without}:1:24 warning rcml.gather-no-action <Gather> has no action: the input is discarded and the next verb runs`,
    ]);
  });

  it('exits 2 with a clear message for a missing file', async () => {
    const outcome = await validateFiles([good, join(dir, 'missing.xml')]);
    expect(outcome.exitCode).toBe(2);
    expect(outcome.errors).toEqual([`rcml validate: cannot read ${join(dir, 'missing.xml')}: no such file`]);
  });

  it('honours --max-bytes', async () => {
    const outcome = await validateFiles([good], 10);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.lines[0]).toContain('error rcml.too-large');
  });

  it('runs through the program, writing to stdout and setting the exit code', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    try {
      await createProgram().parseAsync(['validate', bad, '--max-bytes', '4096'], { from: 'user' });
      expect(process.exitCode).toBe(1);
      expect(out.join('')).toContain('error rcml.required');
    } finally {
      spy.mockRestore();
      process.exitCode = 0;
    }
  });

  it('rejects a bad --max-bytes as a usage error', async () => {
    const program = createProgram();
    program.configureOutput({ writeErr: () => {} });
    for (const cmd of program.commands) cmd.exitOverride().configureOutput({ writeErr: () => {} });
    await expect(
      program.parseAsync(['validate', good, '--max-bytes', 'lots'], { from: 'user' }),
    ).rejects.toMatchObject({
      code: 'commander.invalidArgument',
    });
  });
});
