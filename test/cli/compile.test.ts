import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCommand } from '../../src/cli/commands/compile.js';
import { createProgram } from '../../src/cli/program.js';

const fixtures = fileURLToPath(new URL('../../fixtures/designer/', import.meta.url));

describe('rcml compile', () => {
  it('prints the RCML of a target with parameters', async () => {
    const out = await compileCommand(`${fixtures}gather-collect.json`, {
      target: 'start.step1.handle',
      param: { Digits: '3' },
    });
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('<Say>PIN 3</Say>');
  });

  it('exit 1 with paths for an invalid project, 2 for unreadable or malformed files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-compile-'));
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({
        header: { version: '1.15' },
        nodes: [{ name: 'start', steps: [{ kind: 'say', name: 's' }] }],
      }),
    );
    writeFileSync(join(dir, 'broken.json'), '{\n  "header": ,\n}');
    const bad = await compileCommand(join(dir, 'bad.json'));
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('nodes[0].steps[0].phrase: required');
    const broken = await compileCommand(join(dir, 'broken.json'));
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json:2:13: invalid JSON/);
    expect((await compileCommand(join(dir, 'none.json'))).stderr).toContain('no such file');
  });

  it('exit 1 when the render fails: the Hangup document on stdout, the reason on stderr', async () => {
    const out = await compileCommand(`${fixtures}say.json`, { target: 'nowhere' });
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toContain('<Hangup/>');
    expect(out.stderr).toBe('rcml compile: designer.unknown-module: no module named "nowhere"\n');
  });

  it('parses --target and repeated --param through commander', async () => {
    const program = createProgram();
    let written = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      written += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      await program.parseAsync([
        'node',
        'rcml',
        'compile',
        `${fixtures}say.json`,
        '--param',
        'From=a',
        '-p',
        'x=y',
      ]);
    } finally {
      process.stdout.write = write;
      process.exitCode = undefined;
    }
    expect(written).toContain('Hello a');
  });

  it('a malformed --param is a usage error that names the option and the value', async () => {
    const program = createProgram();
    let errors = '';
    // Sub-commands copy output settings only when created, so configure the command itself.
    for (const command of [program, ...program.commands]) {
      command.configureOutput({ writeErr: (s) => (errors += s), writeOut: () => undefined });
    }
    await expect(
      program.parseAsync(['node', 'rcml', 'compile', 'x.json', '--param', 'novalue']),
    ).rejects.toMatchObject({ code: 'commander.invalidArgument', exitCode: 1 });
    expect(errors).toContain(
      `error: option '-p, --param <name=value>' argument 'novalue' is invalid. expected name=value, got "novalue"`,
    );
    expect(errors).toContain('Usage: rcml compile');
  });
});
