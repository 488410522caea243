import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoadReport } from '../../src/load/report.js';
import { checkThresholds, formatThresholdResult, parseThreshold } from '../../src/load/thresholds.js';
import { startApp, type TestApp } from './app.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');

const report = {
  calls: { started: 10, ended: 10, dropped: 2, perSecond: 40, statuses: {} },
  requests: { total: 200, perSecond: 800 },
  latency: { all: { count: 200, mean: 12, p50: 10, p90: 30, p99: 340.25, max: 400 }, byPath: {}, byKind: {} },
  errors: { total: 1, byKind: {}, notifications: {}, samples: [] },
} as unknown as LoadReport;

describe('load thresholds', () => {
  it('parse metric, operator and number, and refuse what is not one', () => {
    expect(parseThreshold('p99<200')).toEqual({
      expression: 'p99<200',
      metric: 'p99',
      operator: '<',
      value: 200,
    });
    expect(parseThreshold(' errors == 0 ')).toMatchObject({ metric: 'errors', operator: '==', value: 0 });
    expect(() => parseThreshold('p99 under 200')).toThrow(/expected <metric><op><number>/);
    expect(() => parseThreshold('p98<200')).toThrow(/unknown metric 'p98'.*p99/);
  });

  it('check a report and say which failed, with the value measured and its unit', () => {
    const results = checkThresholds(
      report,
      ['p99<200', 'errors==0', 'dropped<=2', 'calls_per_second>=40', 'error_rate<0.01'].map(parseThreshold),
    );
    expect(results.map((r) => [r.expression, r.ok])).toEqual([
      ['p99<200', false],
      ['errors==0', false],
      ['dropped<=2', true],
      ['calls_per_second>=40', true],
      ['error_rate<0.01', true],
    ]);
    expect(formatThresholdResult(results[0]!)).toBe('p99<200 FAILED: p99 was 340.3 ms');
    expect(formatThresholdResult(results[3]!)).toBe(
      'calls_per_second>=40 passed (calls_per_second 40 calls/s)',
    );
  });
});

describe('rcml load --threshold', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
  });

  function load(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'load', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
  }

  it('exits 1 naming the threshold that failed; the report lists each outcome', async () => {
    app = await startApp();
    const run = await load([
      app.url,
      '--calls',
      '5',
      '--clock',
      'virtual',
      '--json',
      '--threshold',
      'errors==0',
      '--threshold',
      'p50<0',
    ]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^rcml load: threshold p50<0 FAILED: p50 was [0-9.]+ ms\n$/);
    expect(JSON.parse(run.out).thresholds).toEqual([
      { expression: 'errors==0', metric: 'errors', operator: '==', value: 0, actual: 0, ok: true },
      expect.objectContaining({ expression: 'p50<0', ok: false }),
    ]);
  });
});
