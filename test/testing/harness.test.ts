import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { formatTrace, runScenario, validateScenario } from '../../src/sim/index.js';
import { expectFlow, FlowAssertionError, recordTrace, runFlow } from '../../src/testing/index.js';
import { fixture, oneApp, queueScenario } from './flows.js';

describe('runFlow and its trace helpers', () => {
  it('runs a scenario file or object and finds calls, requests, verbs, queue events, statuses', async () => {
    const file = fileURLToPath(new URL('../../fixtures/check/ivr-fixed.json', import.meta.url));
    const flow = await runFlow(file);
    const caller = flow.call({ from: '+15551111' });
    expect(flow.call(0)).toBe(caller);
    expect(flow.call(caller.sid)).toBe(caller);
    expect(flow.finalStatus(0)).toBe('completed');
    expect(flow.ended(0)).toBe(true);
    expect(flow.urlsOf(0)).toEqual([
      'http://ivr.example/welcome',
      'http://ivr.example/welcome?attempt=2',
      'http://ivr.example/welcome?attempt=3',
      'http://ivr.example/goodbye',
    ]);
    expect(flow.reached(0, 'http://ivr.example/welcome')).toBe(true);
    expect(flow.verbsOf(0).slice(0, 4)).toEqual(['Say', 'Gather', 'Gather>Say', 'Say']);
    expect(flow.requestsOf(0).map((r) => r.kind)).toEqual(['rcml', 'redirect', 'redirect', 'redirect']);
    expect(flow.timeline({ callSid: caller.sid }).split('\n')[0]).toBe('    0.000  call1  status ringing');
    expect(() => flow.call(5)).toThrow(/no call 5 in the trace \(calls: CA\w+ \+15551111 -> \+15550100\)/);

    const queue = await runFlow(queueScenario);
    const agent = queue.call({ from: '+15559001' });
    expect(queue.queueEventsOf(agent.sid).map((e) => e.type)).toEqual(
      expect.arrayContaining(['match', 'bridge', 'bridge-end']),
    );
  });

  it('expectFlow: assertions pass quietly and fail with the call and its timeline', async () => {
    const base = fixture('ivr-fixed');
    const parties = { ...base.parties, '+15551111': { digits: [{ at: 2, keys: '1' }] } };
    const flow = await runFlow({ ...base, parties });
    expectFlow(flow)
      .call(0)
      .toEndWith('completed')
      .toBeEndedBy('application')
      .toReach('http://ivr.example/sales')
      .notToReach('http://ivr.example/support')
      .toRun('Gather', 'Redirect', 'Dial');
    const failure = (() => {
      try {
        expectFlow(flow).call(0).toReach('http://ivr.example/support');
      } catch (err) {
        return err;
      }
    })();
    expect(failure).toBeInstanceOf(FlowAssertionError);
    const message = (failure as Error).message;
    expect(message).toMatch(
      /^expected call1 \(\+15551111 -> \+15550100\) to fetch http:\/\/ivr\.example\/support, but it fetched http:\/\/ivr\.example\/welcome, /,
    );
    expect(message).toContain('Timeline of call1 (+15551111 -> +15550100):');
    expect(message).toContain('party presses "1"');
    expect(() => expectFlow(flow).call(0).toLastAtMost(5)).toThrow(
      /to last at most 5 s, but it lasted \d+ s/,
    );
  });

  it('endedBy says who ended each call: caller, application, api, timeout, engine', async () => {
    const flow = await runFlow({
      until: 120,
      apps: { 'http://a.test/v': '<Response><Say>Hi</Say><Pause length="30"/></Response>' },
      numbers: { '+15550100': { voiceUrl: 'http://a.test/v' } },
      parties: { '+15551111': { hangupAfter: 5 }, '+15553333': { outcome: 'no-answer' } },
      calls: [
        { at: 0, from: '+15551111', to: '+15550100' },
        { at: 0, from: '+15552222', to: '+15550100' },
        { at: 0, from: '+15554444', to: '+15550100' },
        { at: 0, api: { From: '+15550100', To: '+15553333', Url: 'http://a.test/v', Timeout: 10 } },
        { at: 0, from: '+15555555', to: '+15559999' },
      ],
      modify: [{ at: 3, callIndex: 2, params: { Status: 'completed' } }],
    });
    expect(flow.trace.calls.map((c) => c.endedBy)).toEqual([
      'caller',
      'application',
      'api',
      'timeout',
      'engine',
    ]);
    expect(flow.timeline()).toContain('status completed (ended by caller)');
  });

  it('recordTrace gives an engine of your own the trace and timeline runScenario gives', async () => {
    const scenario = oneApp(
      '<Response><Gather numDigits="1" action="/next"><Say>Hi</Say></Gather></Response>',
      {
        apps: {
          'http://app.test/voice':
            '<Response><Gather numDigits="1" action="/next"><Say>Hi</Say></Gather></Response>',
          'http://app.test/next': '<Response><Say>Bye</Say></Response>',
        },
        parties: { '+15551111': { digits: [{ at: 1, keys: '4' }] } },
        until: 60,
        seed: 3,
      },
    );
    const expected = await runScenario(validateScenario(scenario));

    const recorder = recordTrace({ seed: 3 });
    const engine = createEngine({ seed: 3, ...recorder.engineOptions });
    for (const [url, body] of Object.entries(scenario.apps as Record<string, string>))
      engine.registerHandler(url, () => ({ status: 200, contentType: 'text/xml', body }));
    engine.setNumber('+15550100', { voiceUrl: 'http://app.test/voice' });
    engine.setParty('+15551111', { digits: [{ at: 1, keys: '4' }] });
    engine.incomingCall('+15551111', '+15550100');
    await engine.runUntil(engine.now() + 60_000);
    const trace = recorder.trace(60);
    await engine.close();
    expect(trace).toEqual(expected);
    expect(formatTrace(trace)).toBe(formatTrace(expected));
    expect(recorder.flow(60).finalStatus(0)).toBe('completed');
  });
});
