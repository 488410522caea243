import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../src/cli/program.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/check/${name}.json`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rcml-check-cli-'));

async function run(...args: string[]): Promise<{ out: string; err: string; code: number | undefined }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out += String(s);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err += String(s);
    return true;
  });
  process.exitCode = undefined;
  try {
    await createProgram().parseAsync(['node', 'rcml', 'check', ...args]);
  } catch (error) {
    // A usage error: commander printed it; the command exits 2 (src/cli/main.ts).
    if (!(error instanceof CommanderError)) throw error;
    process.exitCode = 2;
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  const code = process.exitCode as number | undefined;
  process.exitCode = undefined;
  return { out, err, code };
}

describe('rcml check', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('exits 0 when every property holds', async () => {
    const { out, code } = await run(fixture('ivr-fixed'), '--runs', '30', '--seed', '1');
    expect(code).toBeUndefined();
    expect(out).toMatch(/held in 30 runs \(seed 1\)/);
  });

  it('exits 1 and prints the shrunk scenario path, which rcml simulate and rcml check replay', async () => {
    const cx = join(dir, 'cx.json');
    const { out, code } = await run(fixture('ivr-loop'), '--runs', '100', '--seed', '1', '--out', cx);
    expect(code).toBe(1);
    expect(out).toContain(`Shrunk scenario: ${cx}`);
    expect(out).toContain(`Replay: rcml simulate ${cx}`);
    expect(JSON.parse(readFileSync(cx, 'utf8')).parties['+15551111']).toEqual({
      digits: [{ at: 1.7, keys: '0' }],
    });
    const again = await run(cx, '--out', join(dir, 'cx2.json'));
    expect(again.code).toBe(1);
    expect(again.out).toContain('failed after 1 run');
  });

  it('writes the counterexample beside the scenario by default', async () => {
    const file = join(dir, 'loop.json');
    writeFileSync(file, readFileSync(fixture('ivr-loop')));
    const { code } = await run(file, '--runs', '50', '--seed', '2');
    expect(code).toBe(1);
    expect(existsSync(join(dir, 'loop.counterexample.json'))).toBe(true);
  });

  it('exits 2 for an unreadable file, an invalid check section (JSON path named) or none', async () => {
    const missing = await run(join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
    const bad = join(dir, 'bad.json');
    const scenario = JSON.parse(readFileSync(fixture('ivr-loop'), 'utf8'));
    scenario.check.vary.parties['+15551111'].keys.alphabet = 'abc';
    writeFileSync(bad, JSON.stringify(scenario));
    const invalid = await run(bad);
    expect(invalid.code).toBe(2);
    expect(invalid.err).toContain('$.check.vary.parties["+15551111"].keys.alphabet');
    const none = join(dir, 'none.json');
    delete scenario.check;
    writeFileSync(none, JSON.stringify(scenario));
    const plain = await run(none);
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('no check section');
    const runs = await run(fixture('ivr-fixed'), '--runs', '0');
    expect(runs.code).toBe(2);
  });
});
