import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { niceStep } from '../../src/load/html.js';
import { formatLoadReport, loadReportHtml, percentile, runLoad, summarize } from '../../src/load/index.js';
import { LatencyHistogram } from '../../src/load/stats.js';
import { startApp, type TestApp } from './app.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('percentiles', () => {
  it('nearest rank over known values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 90)).toBe(90);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([5], 99)).toBe(5);
    expect(percentile([], 50)).toBe(0);
    expect(summarize([3, 1, 2, 10])).toEqual({ count: 4, mean: 4, p50: 2, p90: 10, p99: 10, max: 10 });
  });

  it('from a streaming histogram: within 0.1% of the exact ones, exact count, mean and max, in constant memory', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => ((i * 7919) % 100_000) / 100 + 0.5);
    const histogram = new LatencyHistogram();
    for (const v of values) histogram.add(v);
    const exact = summarize(values);
    const streamed = histogram.summary();
    expect(streamed.count).toBe(exact.count);
    expect(streamed.max).toBe(exact.max);
    expect(streamed.mean).toBeCloseTo(exact.mean, 6);
    for (const p of ['p50', 'p90', 'p99'] as const) {
      expect(Math.abs(streamed[p] - exact[p]) / exact[p]).toBeLessThan(0.001);
    }
  });
});

describe('the HTML report charts', () => {
  it('take round steps for their grid lines', () => {
    expect([0.37, 3, 7.3, 40, 93, 130, 1234].map(niceStep)).toEqual([0.1, 1, 2, 10, 25, 50, 500]);
  });
});

describe('runLoad', () => {
  it('counts add up: every call started ends, one request each, by path and by kind', async () => {
    app = await startApp();
    const report = await runLoad({ voiceUrl: app.url, calls: 60, concurrency: 8 });
    expect(report.interrupted).toBe(false);
    expect(report.calls).toMatchObject({ started: 60, ended: 60, dropped: 0, statuses: { completed: 60 } });
    expect(report.requests.total).toBe(60);
    expect(app.requests).toBe(60);
    expect(report.latency.byPath['/voice']?.count).toBe(60);
    expect(report.latency.byKind.rcml?.count).toBe(60);
    expect(report.errors.total).toBe(0);
    expect(Object.keys(report.latency.all)).toEqual(['count', 'mean', 'p50', 'p90', 'p99', 'max']);
    expect(report.timeline.reduce((n, s) => n + s.requests, 0)).toBe(60);
    expect(report.engine.heapUsedMaxMb).toBeGreaterThan(0);
    // The terminal table names its unit; the charts draw the p99 the tables and thresholds use,
    // and the request rate in a chart of its own.
    expect(formatLoadReport(report)).toMatch(/^ {2}latency \(ms\) +count +p50 +p90 +p99 +max$/m);
    const html = loadReportHtml(report);
    expect(html).toContain('class="tick">p99</text>');
    expect(html).not.toContain('p95');
    expect(html).toContain('aria-label="Webhook requests"');
  });

  it('percentiles of a known latency distribution: 50% at 10 ms, 40% at 30 ms, 10% at 80 ms', async () => {
    // Request n waits 10, 30 or 80 ms: every latency is at least its wait, so the percentiles
    // have exact lower bounds whatever the machine's load.
    app = await startApp(undefined, (n) => [10, 10, 10, 10, 10, 30, 30, 30, 30, 80][n % 10]!);
    const report = await runLoad({ voiceUrl: app.url, calls: 100, concurrency: 10 });
    const all = report.latency.all;
    expect(all.count).toBe(100);
    expect(all.p50).toBeGreaterThanOrEqual(10);
    expect(all.p90).toBeGreaterThanOrEqual(30);
    expect(all.p99).toBeGreaterThanOrEqual(80);
    expect(all.max).toBeGreaterThanOrEqual(80);
    // Upper bounds relative to each other, not to the clock: a loaded machine delays every request.
    expect(all.p50).toBeLessThan(all.p99);
    expect(all.p50).toBeLessThanOrEqual(all.p90);
    expect(all.p90).toBeLessThanOrEqual(all.p99);
  });

  it('on the virtual clock, with a rate, drops arrivals beyond the concurrency cap', async () => {
    // Each call says a phrase (about a second of virtual time); arrivals every 0.1 s.
    app = await startApp('<Response><Say>Hello there</Say></Response>');
    const report = await runLoad({
      voiceUrl: app.url,
      calls: 20,
      rate: 10,
      concurrency: 3,
      clock: 'virtual',
    });
    expect(report.clock).toBe('virtual');
    expect(report.calls.started + report.calls.dropped).toBe(20);
    expect(report.calls.dropped).toBeGreaterThan(0);
    expect(report.calls.ended).toBe(report.calls.started);
    expect(report.calls.statuses.completed).toBe(report.calls.started);
    expect(report.clockSeconds).toBeGreaterThan(1.9);
    expect(report.calls.droppedReason).toBe(
      'an arrival found 3 calls live (--concurrency 3 at --rate 10/s): raise the concurrency or lower the rate',
    );
    expect(formatLoadReport(report)).toContain(`  dropped: ${report.calls.droppedReason}`);
    // The timeline is on the engine's (virtual) seconds, not the few milliseconds of wall time.
    expect(report.timeline.length).toBe(Math.floor(report.clockSeconds) + 1);
    expect(report.timeline.reduce((n, s) => n + s.callsStarted, 0)).toBe(report.calls.started);
    expect(loadReportHtml(report)).toContain('over virtual seconds of the engine clock');
  });

  it('outbound calls, errors by kind, and a stop through the signal', async () => {
    app = await startApp('not rcml at all');
    const report = await runLoad({ voiceUrl: app.url, calls: 5, concurrency: 5, direction: 'outbound' });
    expect(report.direction).toBe('outbound');
    expect(report.errors.byKind['invalid-rcml']).toBe(5);
    expect(report.errors.notifications).toEqual({ 12100: 5 });
    const refused = await runLoad({ voiceUrl: 'http://127.0.0.1:9/voice', calls: 3, concurrency: 3 });
    expect(refused.errors.byKind.io).toBe(3);
    const stopped = new AbortController();
    stopped.abort();
    const none = await runLoad({ voiceUrl: app.url, calls: 50, signal: stopped.signal });
    expect(none).toMatchObject({ interrupted: true, calls: { started: 0 } });
    await expect(runLoad({ voiceUrl: 'nope', calls: 1 })).rejects.toThrow(
      "voiceUrl: not a valid URL: 'nope'",
    );
    await expect(runLoad({ voiceUrl: app.url, concurrency: 0 })).rejects.toThrow(
      'concurrency: must be at least 1',
    );
  });

  it('rcml load on SIGINT stops, still prints the JSON report, and exits 130', async () => {
    app = await startApp(undefined, () => 20);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, 'load', app.url, '--calls', '100000', '--concurrency', '4', '--json'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    await app.reached(20);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    const report = JSON.parse(out);
    expect(report.interrupted).toBe(true);
    expect(report.calls.started).toBeGreaterThanOrEqual(20);
    expect(report.calls.ended).toBe(report.calls.started);
    expect(report.latency.all.p50).toBeGreaterThanOrEqual(20);
  });
});
