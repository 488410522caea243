/**
 * The console in headless Chromium against a real server on the virtual clock: log in, watch a
 * call placed through /sim appear and end, its timeline and recording, a queue fill and drain,
 * a designer application's graph, the operator's actions by keyboard, the calls list's current
 * verbs, running times and filters, a call's webhook requests and answers, and logging out.
 * Screenshots of each page land in test-artifacts/console/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, type ConsoleServer, startConsoleServer, TOKEN } from './setup.js';

const CHROMIUM = process.env.RCML_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'console');

async function launch(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  try {
    return await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
  } catch {
    return undefined;
  }
}

const browser = await launch();
if (!browser) {
  console.log(
    `console browser test skipped: Chromium cannot be launched from ${CHROMIUM} (apt-get install chromium, or set RCML_CHROMIUM)`,
  );
}

describe.skipIf(!browser)('the web console in headless Chromium', () => {
  let s: ConsoleServer;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  /** Checks the page's accessibility basics, then keeps a screenshot of it. */
  const shot = async (name: string) => {
    // Every input has a label, every button and link a name, every picture a title.
    const unlabeled = await page.evaluate(`[
        ...[...document.querySelectorAll('input')].filter((i) => i.labels.length === 0 && !i.getAttribute('aria-label')),
        ...[...document.querySelectorAll('button, a')].filter((b) => !b.textContent.trim() && !b.getAttribute('aria-label')),
        ...[...document.querySelectorAll('svg[role=img]')].filter((g) => !g.querySelector('title')?.textContent),
      ].map((e) => e.outerHTML)`);
    expect(unlabeled).toEqual([]);
    expect(await page.locator('h1').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  };
  const row = (sid: string) => page.locator(`tr[data-sid="${sid}"]`);
  const placeCall = async (to: string, from = '+15551234') => {
    const res = await s.api('/sim/Calls', { From: from, To: to });
    expect(res.status).toBe(200);
    return ((await res.json()) as { sid: string }).sid;
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    s = await startConsoleServer();
    page = await (browser as Browser).newPage({ viewport: { width: 1200, height: 900 } });
    page.on('request', (r) => requests.push(r.url()));
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => {
      // Before login and at the wrong token the session routes answer 401, as they should.
      const expected = r.status() === 401 && /\/console\/api\/(session|login)$/.test(r.url());
      if (r.status() >= 400 && !expected) problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('status of 401')) problems.push(m.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('logs in with the form, by keyboard, into an HttpOnly SameSite=Strict session', async () => {
    await page.goto(`${s.url}/console`);
    await page.getByLabel('Account SID').waitFor();
    await shot('login');
    await page.getByLabel('Account SID').fill(ACCOUNT);
    await page.getByLabel('Auth token').fill('wrong-token');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('Wrong account SID or auth token.').waitFor();
    await page.getByLabel('Auth token').fill(TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();
    expect(page.url()).not.toContain(TOKEN);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([
      ['rcml_console', true, 'Strict', '/console'],
    ]);
    expect(cookies[0].value).not.toContain(TOKEN);
  });

  it('shows a call placed through /sim appear, go live and end', async () => {
    const sid = await placeCall('+15550100');
    await row(sid).waitFor();
    await s.advance(1);
    await page.locator(`tr[data-sid="${sid}"][data-status="in-progress"]`).waitFor();
    await shot('calls-live');
    await s.advance(30);
    await page.locator(`tr[data-sid="${sid}"][data-status="completed"]`).waitFor();
    expect(await row(sid).locator('td.status').textContent()).toBe('completed');
    expect(await row(sid).getByRole('button').count()).toBe(0);
    await shot('calls-ended');
  });

  it("draws the call's timeline and plays its recording", async () => {
    const sid = (await page.locator('tr[data-sid]').first().getAttribute('data-sid')) as string;
    await row(sid).getByRole('link', { name: sid }).click();
    await page.locator('svg.timeline').waitFor();
    const lanes = await page.locator('svg.timeline .lane-label').allTextContents();
    expect(lanes).toContain('Verbs');
    const table = await page.locator('table.marks').textContent();
    for (const verb of ['Say', 'Record', 'Hangup', 'in-progress', 'completed']) expect(table).toContain(verb);
    expect(await page.locator('svg.timeline .tone-ok rect').count()).toBeGreaterThan(0);
    const audio = page.locator('ul.recordings audio');
    expect(await audio.count()).toBe(1);
    // In the page (its DOM types are not the test's): play to the end.
    const played = (await page.evaluate(`(async () => {
      const a = document.querySelector('ul.recordings audio');
      await a.play();
      await new Promise((resolve) => a.addEventListener('ended', resolve, { once: true }));
      return { duration: a.duration, ended: a.ended };
    })()`)) as { duration: number; ended: boolean };
    expect(played.ended).toBe(true);
    expect(played.duration).toBeGreaterThan(0.5);
    await shot('timeline');
  });

  it('shows a queue fill with positions, then drain', async () => {
    await page.getByRole('link', { name: 'Queues' }).click();
    await page.getByRole('heading', { name: 'Queues', level: 1 }).waitFor();
    const customers = [];
    for (const from of ['+15557001', '+15557002', '+15557003'])
      customers.push(await placeCall('+15550300', from));
    await s.advance(1);
    const members = page.locator('[data-queue="support"] section').first().locator('li');
    await page.locator('[data-queue="support"] li[data-position="3"]').waitFor();
    expect(await members.allTextContents()).toEqual([
      expect.stringContaining(customers[0]),
      expect.stringContaining(customers[1]),
      expect.stringContaining(customers[2]),
    ]);
    await shot('queue-full');
    await placeCall('+15550400', '+15558001');
    await s.advance(1);
    await page.locator('[data-queue="support"] li[data-position="3"]').waitFor({ state: 'detached' });
    expect(await members.first().textContent()).toContain(customers[1]);
    await placeCall('+15550400', '+15558002');
    await placeCall('+15550400', '+15558003');
    await s.advance(1);
    await page.locator('[data-queue="support"] li').first().waitFor({ state: 'detached' });
    expect(await page.locator('[data-queue="support"] h3').first().textContent()).toBe(
      'Waiting in <Dial><Queue>: 0 (API: customers)',
    );
    expect(await page.locator('[data-queue="support"] h3').last().textContent()).toBe(
      'Waiting in <Enqueue>: 0 (API: agents)',
    );
    expect(await page.locator('p.hint').textContent()).toContain(
      'The platform names them agents (Enqueue) and customers (Dial/Queue)',
    );
    await shot('queue-drained');
  });

  it("draws a designer application's module graph", async () => {
    const created = await s.api(
      '/visual-designer/services/projects?name=Front%20desk&template=TL00000000000000000000000000000001',
      {},
    );
    expect(created.status).toBe(200);
    const { sid } = (await created.json()) as { sid: string };
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('link', { name: 'Front desk' }).click();
    await page.locator('svg.graph').waitFor();
    const graph = await (await s.api(`/visual-designer/services/projects/${sid}`)).json();
    expect(await page.locator('svg.graph g.node').count()).toBe((graph as { nodes: unknown[] }).nodes.length);
    expect(await page.locator('svg.graph g.edge').count()).toBeGreaterThan(0);
    expect(await page.locator('svg.graph title').textContent()).toContain(sid);
    await shot('application-graph');
  });

  it('hangs up and redirects live calls, and mutes a participant, from the keyboard', async () => {
    await page.getByRole('link', { name: 'Calls' }).click();
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();
    const held = await placeCall('+15550200');
    const moved = await placeCall('+15550200', '+15551235');
    const talker = await placeCall('+15550500', '+15551236');
    await s.advance(1);
    await page.locator(`tr[data-sid="${held}"][data-status="in-progress"]`).waitFor();
    // Tab from the top of the page to the hang-up button, then Enter.
    await page.locator('a.skip').focus();
    const target = `Hang up ${held}`;
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate("document.activeElement?.getAttribute('aria-label')")) === target;
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator(`tr[data-sid="${held}"][data-status="completed"]`).waitFor();
    expect(await page.getByRole('status').first().textContent()).toBe(`Hung up ${held}.`);

    await page.getByLabel(`Redirect ${moved} to`).fill('http://app.test/other');
    await page.getByLabel(`Redirect ${moved} to`).press('Enter');
    await page.getByRole('status').getByText(`Redirected ${moved}`).waitFor();
    await s.advance(1);
    await page.getByRole('link', { name: moved }).click();
    await page.locator('table.marks').getByText('Moved here.', { exact: false }).waitFor();
    expect(await page.locator('table.marks').textContent()).toContain('live modification');
    await page.goBack();
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();

    const mute = page.getByRole('button', { name: `Mute ${talker} in standup` });
    await mute.waitFor();
    await mute.focus();
    await page.keyboard.press('Enter');
    await page.locator(`button[aria-label="Mute ${talker} in standup"][aria-pressed="true"]`).waitFor();
    const conferences = (await (
      await s.api(`/platform/2012-04-24/Accounts/${ACCOUNT}/Conferences.json?Status=in-progress`)
    ).json()) as { conferences: Array<{ sid: string }> };
    const participant = (await (
      await s.api(
        `/platform/2012-04-24/Accounts/${ACCOUNT}/Conferences/${conferences.conferences[0].sid}/Participants/${talker}.json`,
      )
    ).json()) as { muted: boolean };
    expect(participant.muted).toBe(true);
    await shot('calls-actions');
  });

  it('lists recent notifications', async () => {
    await placeCall('+15559999'); // no such number: the engine notifies
    await s.advance(1);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.locator('table.notifications tbody tr').first().waitFor();
    expect(await page.locator('table.notifications').textContent()).toContain('+15559999');
    await shot('notifications');
  });

  it('shows what each live call is doing and its running time, with filters and a search by sid', async () => {
    await page.getByRole('link', { name: 'Calls' }).click();
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();
    const held = await placeCall('+15550200', '+15552001');
    await row(held).waitFor();
    await s.advance(10);
    await page
      .locator(`tr[data-sid="${held}"][data-status="in-progress"] td.verb`)
      .getByText('Pause')
      .waitFor();
    expect(await row(held).locator('td.duration').textContent()).toMatch(/^\d+ s$/);
    // On the virtual clock the running time is the engine's time of the call's newest event:
    // a redirect 10 s in starts a Say there.
    const redirect = await s.api(`/platform/2012-04-24/Accounts/${ACCOUNT}/Calls/${held}.json`, {
      Url: 'http://app.test/other',
    });
    expect(redirect.status).toBe(200);
    await s.advance(1);
    await row(held)
      .locator('td.duration')
      .filter({ hasText: /^1\d s$/ })
      .waitFor();
    const ended = page.locator('tr[data-status="completed"]').first();
    expect(await ended.locator('td.verb').textContent()).toBe('');
    expect(await ended.locator('td.duration').textContent()).toMatch(/^\d+ s$/);

    const filters = page.locator('form.call-filters');
    const visible = () => page.locator('tr[data-sid]:visible');
    const all = await page.locator('tr[data-sid]').count();
    await filters.locator('input[name=sid]').fill(held.slice(-6).toLowerCase());
    expect(await visible().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sid')))).toEqual([
      held,
    ]);
    await filters.locator('input[name=sid]').fill('');
    await filters.locator('input[name=number]').fill('555 2001');
    expect(await visible().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sid')))).toEqual([
      held,
    ]);
    await filters.locator('input[name=number]').fill('');
    await filters.locator('select[name=status]').selectOption('live');
    const live = await visible().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((status) => ['queued', 'ringing', 'in-progress'].includes(status ?? ''))).toBe(true);
    await filters.locator('select[name=status]').selectOption('completed');
    const done = await visible().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(done.length).toBeGreaterThan(0);
    expect(done.every((status) => status === 'completed')).toBe(true);
    await filters.locator('select[name=status]').selectOption('');
    await filters.locator('select[name=direction]').selectOption('outbound-api');
    expect(await visible().count()).toBe(0);
    await filters.locator('select[name=direction]').selectOption('inbound');
    expect(await visible().count()).toBe(all);
    await filters.locator('select[name=direction]').selectOption('');
    await filters.locator('input[name=date]').fill('2026-01-06');
    expect(await visible().count()).toBe(0);
    expect(await page.locator('p.summary').textContent()).toContain(`0 of ${all} shown`);
    await filters.locator('input[name=date]').fill('2026-01-05');
    expect(await visible().count()).toBe(all);
    await shot('calls-filtered');
    await filters.locator('input[name=date]').fill('');
  });

  it("lists a call's webhook requests with the parameters sent and the document answered, as text", async () => {
    const held = (await page
      .locator('tr[data-sid][data-status="in-progress"]')
      .first()
      .getAttribute('data-sid')) as string;
    await row(held).getByRole('link', { name: held }).click();
    const request = page.locator('ol.webhooks li').first();
    await request.waitFor();
    expect(await request.locator('summary').textContent()).toBe('POST http://app.test/hold → 200 (rcml)');
    await request.locator('summary').click();
    const params = await request
      .locator('table.params tbody tr')
      .evaluateAll((rows) =>
        Object.fromEntries(rows.map((r) => [r.cells[0]?.textContent, r.cells[1]?.textContent])),
      );
    expect(params).toMatchObject({ CallSid: held, From: '+15552001', To: '+15550200', Direction: 'inbound' });
    expect(await request.getByText('HTTP 200 (text/xml)').count()).toBe(1);
    const body = request.locator('pre.response-body');
    expect(await body.textContent()).toBe(
      '<Response><Say>Please hold.</Say><Pause length="600"/></Response>',
    );
    // Shown as text: the document's elements are not the page's.
    expect(await body.locator('*').count()).toBe(0);
    await shot('call-webhooks');

    const long = await placeCall('+15550600');
    await s.advance(1);
    await page.goto(`${s.url}/console/#/calls/${long}`);
    await page.locator('ol.webhooks li summary').first().click();
    const cut = (await page.locator('ol.webhooks pre.response-body').first().textContent()) as string;
    expect(cut.startsWith('<Response><Pause length="600"/>')).toBe(true);
    expect(cut.endsWith('\n… (cut at 4,096 characters)')).toBe(true);
    expect(cut.length).toBe(4096 + '\n… (cut at 4,096 characters)'.length);
    await page.goto(`${s.url}/console/#/calls`);
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();
  });

  it('loads nothing from elsewhere, shows no credentials, and logs out', async () => {
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(requests.filter((u) => !u.startsWith(s.url))).toEqual([]);
    expect(requests.some((u) => u.includes(TOKEN))).toBe(false);
    expect(problems).toEqual([]);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('Account SID').waitFor();
    const after = await page.evaluate("fetch('api/session').then((r) => r.status)");
    expect(after).toBe(401);
  });
});
