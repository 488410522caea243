import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario, runScenario, ScenarioError, validateScenario } from '../../src/sim/index.js';

const ivrPath = new URL('../../fixtures/scenarios/ivr.json', import.meta.url);
const ivrText = readFileSync(ivrPath, 'utf8');

describe('scenario files', () => {
  it('give byte-identical traces for the same scenario and seed', async () => {
    const a = JSON.stringify(await runScenario(parseScenario(ivrText)));
    const b = JSON.stringify(await runScenario(parseScenario(ivrText)));
    expect(a).toBe(b);
    const other = JSON.parse(ivrText);
    other.seed = 43;
    expect(JSON.stringify(await runScenario(validateScenario(other)))).not.toBe(a);
  });

  it('trace calls, verbs, requests, gathers, recordings and messages', async () => {
    const trace = await runScenario(parseScenario(ivrText));
    expect(trace.calls.map((c) => [c.direction, c.to, c.status])).toEqual([
      ['inbound', '+15550100', 'completed'],
      ['inbound', '+15550100', 'completed'],
      ['outbound-api', '+15553333', 'busy'],
      ['outbound-api', '+15554444', 'completed'],
    ]);
    expect(trace.calls[0].verbs.map((v) => v.verb)).toEqual(['Say', 'Gather', 'Say', 'Say', 'Sms', 'Hangup']);
    expect(trace.calls[0].verbs[1].at).toBe(1.6);
    // Gather's prompt is listed nested in it, at its own start time; top-level verbs have no parent.
    expect(trace.calls[0].verbs[2]).toEqual({
      at: 1.6,
      verb: 'Say',
      documentUrl: 'http://ivr.example/welcome',
      parent: 'Gather',
      details: { text: 'Press 1 for sales, 2 to leave a message.' },
    });
    expect(trace.calls[0].verbs.filter((v) => 'parent' in v)).toHaveLength(1);
    // Each verb says what it offered: Gather its attributes, Sms its message.
    expect(trace.calls[0].verbs[1]?.details).toEqual({ action: '/menu', numDigits: 1, timeout: 5 });
    expect(trace.calls[0].verbs[4]?.details).toEqual({ text: 'Thanks for calling sales' });
    expect(trace.timeline).toContainEqual({
      at: 1.6,
      callSid: trace.calls[0].sid,
      event: '<Say> in <Gather>',
    });
    expect(trace.requests.find((r) => r.kind === 'action')).toMatchObject({
      at: 3,
      url: 'http://ivr.example/menu',
      status: 200,
      params: expect.objectContaining({ Digits: '1' }),
    });
    expect(trace.gathers.map((g) => g.status)).toEqual(['completed', 'completed', 'completed', 'failed']);
    expect(trace.recordings).toHaveLength(1);
    expect(trace.messages).toHaveLength(1);
    expect(trace.calls[3].duration).toBe(12);
  });

  it('name the JSON path of a bad field', () => {
    const bad = JSON.parse(ivrText);
    bad.parties['+15551111'].digits[0].keys = 'abc';
    bad.calls[2].api.Url = 'nope';
    try {
      validateScenario(bad);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError);
      const message = (err as Error).message;
      expect(message).toContain('$.parties["+15551111"].digits[0].keys');
      expect(message).toContain('$.calls[2]');
    }
    expect(() => validateScenario({ until: 10, surprise: true })).toThrow(/surprise|Unrecognized/);
    // Entries that may take two shapes name the field of the shape they were meant to have.
    const named = (v: unknown): string => {
      try {
        validateScenario(v);
      } catch (err) {
        return (err as ScenarioError).issues.map((i) => `${i.path}: ${i.message}`).join('\n');
      }
      return 'valid';
    };
    expect(named({ until: 10, calls: [{ at: 1, from: '+1' }] })).toMatch(/^\$\.calls\[0\]\.to: /);
    expect(
      named({
        until: 10,
        calls: [{ at: 1, api: { From: '+1', To: '+2', Url: 'http://a.test', Timeout: 'x' } }],
      }),
    ).toMatch(/^\$\.calls\[0\]\.api\.Timeout: /);
    expect(named({ until: 10, apps: { 'http://a.test/x': [{ rcml: 1 }] } })).toMatch(
      /^\$\.apps\["http:\/\/a\.test\/x"\]\[0\]\.rcml: /,
    );
    expect(named({ until: 10, apps: { 'not-a-url': '<Response/>' } })).toBe(
      '$.apps["not-a-url"]: key: must be an absolute URL',
    );
    expect(() => parseScenario('{ "until": 10,, }')).toThrow(/invalid JSON at 1:\d+/);
  });

  it('chooses the first app variant whose parameters all match', async () => {
    const trace = await runScenario(
      validateScenario({
        until: 30,
        apps: {
          'http://a.test/start': '<Response><Gather action="/pick" numDigits="1"/></Response>',
          'http://a.test/pick': [
            { when: { Digits: '1', From: '+1' }, rcml: '<Response><Say>one</Say></Response>' },
            { rcml: '<Response><Pause/></Response>' },
          ],
        },
        numbers: { '+100': { voiceUrl: 'http://a.test/start' } },
        parties: { '+1': { digits: [{ at: 1, keys: '1' }] }, '+2': { digits: [{ at: 1, keys: '1' }] } },
        calls: [
          { at: 0, from: '+1', to: '+100' },
          { at: 0, from: '+2', to: '+100' },
        ],
      }),
    );
    expect(trace.calls.map((c) => c.verbs.map((v) => v.verb))).toEqual([
      ['Gather', 'Say'],
      ['Gather', 'Pause'],
    ]);
  });
});

describe('a scenario against a real HTTP server', () => {
  let server: Server;
  let base = '';
  const inline = JSON.parse(ivrText);

  beforeAll(async () => {
    const apps = inline.apps as Record<
      string,
      string | Array<{ when?: Record<string, string>; rcml: string }>
    >;
    server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const params = Object.fromEntries(new URLSearchParams(body));
      const app = apps[`http://ivr.example${req.url}`];
      const variant =
        typeof app === 'string'
          ? app
          : app?.find((v) => Object.entries(v.when ?? {}).every(([k, want]) => params[k] === want))?.rcml;
      if (variant === undefined) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(variant);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gives the same trace as its inline version', async () => {
    const swap = (text: string): string => text.replaceAll('http://ivr.example', base);
    const remote = JSON.parse(swap(ivrText));
    remote.apps = {};
    const viaHttp = await runScenario(validateScenario(remote));
    const viaInline = await runScenario(validateScenario(JSON.parse(swap(ivrText))));
    expect(JSON.stringify(viaHttp)).toBe(JSON.stringify(viaInline));
    expect(viaHttp.requests.every((r) => r.status === 200)).toBe(true);
  });
});
