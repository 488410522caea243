import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../src/cli/program.js';

const scenario = fileURLToPath(new URL('../../fixtures/scenarios/ivr.json', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

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
    await createProgram().parseAsync(['node', 'rcml', 'simulate', ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  const code = process.exitCode as number | undefined;
  process.exitCode = undefined;
  return { out, err, code };
}

describe('rcml simulate', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rcml-sim-'));
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('prints a human timeline by default', async () => {
    const { out, code } = await run(scenario);
    expect(code).toBeUndefined();
    expect(out).toContain('Timeline:');
    expect(out).toMatch(/3\.000 {2}call1 {2}party presses "1"/);
    expect(out).toContain('outbound-api +15550100 -> +15553333: busy');
  });

  it('prints the trace as JSON with --json, identical on every run', async () => {
    const a = await run(scenario, '--json');
    const b = await run(scenario, '--json');
    expect(a.out).toBe(b.out);
    const trace = JSON.parse(a.out);
    expect(trace.calls).toHaveLength(4);
    expect(Object.keys(trace)).toEqual(
      expect.arrayContaining(['calls', 'requests', 'recordings', 'gathers', 'notifications']),
    );
  });

  it('exits 1 naming the bad field of an invalid scenario', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ until: 10, calls: [{ at: -1, from: '+1', to: '+2' }] }));
    const { err, code } = await run(file);
    expect(code).toBe(1);
    expect(err).toContain('$.calls[0]');
  });

  it('exits 2 naming a missing file', async () => {
    const missing = join(dir, 'missing.json');
    const { err, code } = await run(missing);
    expect(code).toBe(2);
    expect(err).toMatch(
      new RegExp(
        `^rcml simulate: cannot read ${missing}: no such file\nUsage: rcml simulate \\[options\\] <scenario>\n`,
      ),
    );
  });

  it('exits 2 with a usage message when the scenario argument is missing', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'simulate'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("missing required argument 'scenario'");
    expect(r.stdout).toBe('');
  });
});
