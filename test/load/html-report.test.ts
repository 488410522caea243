import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadReportHtml, runLoad } from '../../src/load/index.js';
import { startApp } from './app.js';

const CHROMIUM = process.env.RCML_CHROMIUM ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.log(
    `HTML report test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set RCML_CHROMIUM)`,
  );

describe.skipIf(!present)('the HTML load report in headless Chromium', () => {
  it('renders its charts and tables offline, and a screenshot shows them', async () => {
    const app = await startApp(undefined, (n) => (n % 4 === 0 ? 15 : 2));
    const report = await runLoad({ voiceUrl: app.url, calls: 80, concurrency: 8 });
    await app.close();
    const file = join(mkdtempSync(join(tmpdir(), 'rcml-html-')), 'report.html');
    writeFileSync(file, loadReportHtml(report));

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(pathToFileURL(file).href);
      // Self-contained: the page loads nothing but itself.
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(problems).toEqual([]);
      expect(await page.locator('svg').count()).toBe(3);
      expect(await page.locator('svg polyline').count()).toBe(6);
      expect(await page.locator('h1').textContent()).toBe('rcml load report');
      expect(await page.locator('table').first().textContent()).toContain('rcml');
      const box = await page.locator('svg').first().boundingBox();
      expect(box?.width).toBeGreaterThan(600);
      const png = await page.screenshot({ fullPage: true });
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      // The latency chart is drawn: its pixels are not all one colour.
      const chart = await page.locator('svg').first().screenshot();
      const colours = new Set<string>();
      for (let i = 0; i + 4 <= chart.length && colours.size < 50; i += 97)
        colours.add(chart.subarray(i, i + 4).toString('hex'));
      expect(colours.size).toBeGreaterThan(10);
    } finally {
      await browser.close();
    }
  });
});
