import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintCommand } from '../../src/cli/commands/lint.js';

const fixtures = fileURLToPath(new URL('../../fixtures/designer/', import.meta.url));

describe('rcml lint', () => {
  it('clean project: no output, exit 0', async () => {
    expect(await lintCommand(`${fixtures}hungup.json`)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('errors: one line per finding, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-lint-'));
    const file = join(dir, 'p.json');
    writeFileSync(
      file,
      JSON.stringify({
        header: { version: '1.15' },
        nodes: [{ name: 'start', steps: [{ kind: 'redirect', name: 's1', next: 'nowhere' }] }],
      }),
    );
    const out = await lintCommand(file);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe(
      `${file}: error designer.dangling-target nodes[0].steps[0].next: "nowhere" names no module\n`,
    );
  });

  it('prints what the loader set aside as warnings, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-lint-'));
    const file = join(dir, 'p.json');
    writeFileSync(
      file,
      JSON.stringify({
        header: { version: '1.15' },
        nodes: [{ name: 'start', steps: [{ kind: 'pause', name: 's1', length: -2 }] }],
      }),
    );
    expect(await lintCommand(file)).toEqual({
      stdout: `${file}: warning designer.set-aside nodes[0].steps[0].length: set aside, not used (must be >= 1)\n`,
      stderr: '',
      exitCode: 0,
    });
  });

  it('exit 2 with the reason when the file is missing or not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-lint-'));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"nodes": [}');
    expect(await lintCommand(broken)).toEqual({
      stdout: '',
      stderr: expect.stringMatching(/^rcml lint: .*broken\.json:1:12: invalid JSON/),
      exitCode: 2,
    });
    const missing = await lintCommand(join(dir, 'none.json'));
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
