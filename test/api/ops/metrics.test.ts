import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../../src/api/engine-server.js';
import { createLogger, createPlatformMetrics } from '../../../src/api/ops/index.js';
import type { RcmlHandler } from '../../../src/engine/types.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../../store/fixtures.js';
import { AUTH_A, BASE, ROOT_A } from '../harness.js';

const xml = (body: string): ReturnType<RcmlHandler> => ({
  status: 200,
  contentType: 'text/xml',
  body: `<Response>${body}</Response>`,
});

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/** An engine app on the virtual clock with metrics and a log captured in memory. */
async function server(level: 'info' | 'debug' = 'debug') {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({
    level,
    format: 'json',
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const metrics = createPlatformMetrics({ processMetrics: false });
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock: 'virtual',
    seed: 3,
    epoch: Date.UTC(2024, 2, 5, 12),
    ops: { metrics, log },
  });
  opened.push(built);
  const { app, engine } = built;
  engine.registerHandler('http://app.test/bye', () => xml('<Say>Bye</Say>'));
  engine.registerHandler('http://app.test/broken', () => ({
    status: 500,
    contentType: 'text/plain',
    body: 'x',
  }));
  engine.registerHandler('http://app.test/wait', () => xml('<Pause length="60"/>'));
  const request = (path: string, fields?: Record<string, string>) =>
    app.fetch(
      new Request(BASE + path, {
        method: fields ? 'POST' : 'GET',
        headers: fields
          ? { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' }
          : { Authorization: AUTH_A },
        body: fields ? new URLSearchParams(fields).toString() : undefined,
      }),
    );
  const place = async (url: string) => {
    const res = await request(`${ROOT_A}/Calls.json`, { From: '+15551111', To: '+15552222', Url: url });
    expect(res.status).toBe(200);
    return ((await res.json()) as { sid: string }).sid;
  };
  const scrape = async () => {
    const res = await app.fetch(new Request(`${BASE}/metrics`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };
  /** The value of one series, or undefined when absent. */
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  return { ...built, store, lines, request, place, scrape, value, metrics };
}

describe('GET /metrics', () => {
  it('counts calls by direction and status, live calls, webhooks, failures, notifications and requests', async () => {
    const s = await server();
    const ok = await s.place('http://app.test/bye');
    const broken = await s.place('http://app.test/broken');
    const waiting = await s.place('http://app.test/wait');
    await s.request('/sim/Advance', { Seconds: '10' });
    await s.request(`${ROOT_A}/Calls/${ok}.json`);
    await s.request('/nowhere');
    const text = await s.scrape();
    expect(s.value(text, 'rcml_calls_started_total{direction="outbound-api"}')).toBe(3);
    expect(s.value(text, 'rcml_calls_ended_total{status="completed",direction="outbound-api"}')).toBe(1);
    expect(s.value(text, 'rcml_calls_ended_total{status="failed",direction="outbound-api"}')).toBe(1);
    expect(s.value(text, 'rcml_calls_live')).toBe(1);
    expect(s.value(text, 'rcml_webhook_duration_seconds_count{kind="rcml"}')).toBe(3);
    expect(s.value(text, 'rcml_webhook_failures_total{code="500"}')).toBe(1);
    expect(text).toMatch(/^rcml_notifications_total\{code="\d+"\} 1$/m);
    expect(
      s.value(
        text,
        'rcml_http_requests_total{method="POST",route="/platform/2012-04-24/Accounts/:accountSid/Calls.json",status="200"}',
      ),
    ).toBe(3);
    expect(text).toContain('route="/platform/2012-04-24/Accounts/:accountSid/Calls/:file",status="200"');
    expect(s.value(text, 'rcml_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    // Labels never carry sids.
    for (const sid of [ok, broken, waiting, ACCOUNT_A]) expect(text).not.toContain(sid);
    s.metrics.storeWrite(0.002, 40);
    const after = await s.scrape();
    // Scraping again reports the same counts, not twice them.
    expect(s.value(after, 'rcml_calls_started_total{direction="outbound-api"}')).toBe(3);
    expect(s.value(after, 'rcml_webhook_failures_total{code="500"}')).toBe(1);
    expect(s.value(after, 'rcml_store_write_batch_size_count')).toBe(1);
    expect(s.value(after, 'rcml_store_write_batch_size_sum')).toBe(40);
  });

  it('follows queue sizes and waits', async () => {
    const s = await server();
    s.engine.registerHandler('http://app.test/enqueue', () => xml('<Enqueue>support</Enqueue>'));
    s.engine.registerHandler('http://app.test/agent', () => xml('<Dial><Queue>support</Queue></Dial>'));
    await s.place('http://app.test/enqueue');
    await s.place('http://app.test/enqueue');
    await s.request('/sim/Advance', { Seconds: '30' });
    let text = await s.scrape();
    expect(s.value(text, 'rcml_queue_members{side="enqueued"}')).toBe(2);
    expect(s.value(text, 'rcml_queues_active')).toBe(1);
    await s.place('http://app.test/agent');
    await s.request('/sim/Advance', { Seconds: '5' });
    text = await s.scrape();
    expect(s.value(text, 'rcml_queue_wait_seconds_count{outcome="match"}')).toBe(1);
    expect(s.value(text, 'rcml_queue_members{side="enqueued"}')).toBe(1);
    expect(s.value(text, 'rcml_queue_wait_seconds_sum{outcome="match"}')).toBeGreaterThanOrEqual(30);
  });
});

describe('call logs', () => {
  it('name the call and its account on every line about a call, and never a secret', async () => {
    const s = await server('debug');
    const ok = await s.place('http://app.test/bye');
    const broken = await s.place('http://app.test/broken');
    await s.request('/sim/Advance', { Seconds: '10' });
    const about = s.lines.filter((l) => l.callSid !== undefined);
    expect(about.length).toBeGreaterThan(4);
    for (const line of about) expect(line.accountSid).toBe(ACCOUNT_A);
    expect(s.lines).toContainEqual(
      expect.objectContaining({ msg: 'call ended', callSid: ok, status: 'completed', level: 30 }),
    );
    expect(s.lines).toContainEqual(
      expect.objectContaining({ msg: 'webhook failed', callSid: broken, status: 500, level: 40 }),
    );
    expect(s.lines).toContainEqual(expect.objectContaining({ msg: 'call status', callSid: ok, level: 20 }));
    expect(JSON.stringify(s.lines)).not.toContain(tokenOf(ACCOUNT_A));
  });

  it('redact secrets in fields and credentials in error messages', () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'json', destination: { write: (l: string) => lines.push(l) } });
    log.info(
      { authToken: 'tok-1', nested: { password: 'pw-2' }, headers: { authorization: 'Basic x' } },
      'a',
    );
    log.error({ err: new Error('cannot reach postgres://rcml:pw-3@db/rcml') }, 'b');
    const text = lines.join('');
    for (const secret of ['tok-1', 'pw-2', 'Basic x', 'pw-3']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    expect(text).toContain('postgres://***@db/rcml');
  });

  it('write a concise human line when asked', () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'human', destination: { write: (l: string) => lines.push(l) } });
    log.warn({ callSid: 'CA1', accountSid: 'AC2', url: 'http://x/a b' }, 'webhook failed');
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}webhook failed callSid=CA1 accountSid=AC2 url="http:\/\/x\/a b"\n$/,
    );
  });
});
