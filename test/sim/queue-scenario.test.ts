import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatTrace, parseScenario, runScenario, validateScenario } from '../../src/sim/index.js';

const scenario = {
  until: 120,
  apps: {
    'http://q.test/agent':
      '<Response><Enqueue waitUrl="http://q.test/hold" rejoin="true">support</Enqueue></Response>',
    'http://q.test/customer':
      '<Response><Dial timeout="60"><Queue joinUrl="http://q.test/join">support</Queue></Dial></Response>',
    'http://q.test/hold': '<Response><Pause length="20"/></Response>',
    'http://q.test/join': '<Response><Say>connecting</Say></Response>',
  },
  numbers: {
    '+15550001': { voiceUrl: 'http://q.test/agent' },
    '+15550002': { voiceUrl: 'http://q.test/customer' },
  },
  parties: { '+15559001': { hangupAfter: 30 } },
  calls: [
    { at: 0, from: '+15558001', to: '+15550001' },
    { at: 10, from: '+15559001', to: '+15550002' },
  ],
};

describe('queue scenarios', () => {
  it('lists queue events with virtual times: enqueue, wait rounds, match, join, bridge, rejoin', async () => {
    const trace = await runScenario(parseScenario(JSON.stringify(scenario)));
    const events = trace.queueEvents.map((e) => `${e.at} ${e.type}`);
    expect(events.slice(0, 5)).toEqual([
      '0 enqueue',
      '0 wait-loop',
      '10 match',
      '10 join',
      expect.stringMatching(/ bridge$/),
    ]);
    expect(events).toContain('40 bridge-end');
    expect(events).toContain('40 rejoin');
    expect(trace.timeline.some((l) => l.event.startsWith("queue 'support': wait round"))).toBe(true);
    expect(formatTrace(trace)).toContain('queue');
    // Same scenario, same trace.
    expect(await runScenario(parseScenario(JSON.stringify(scenario)))).toEqual(trace);
  });

  it('express every queue rule: queue-full, FIFO matches, drop, rejoin, leave, hang-up and Dial timeout', async () => {
    const text = readFileSync(new URL('../../fixtures/scenarios/queue.json', import.meta.url), 'utf8');
    const trace = await runScenario(parseScenario(text));
    const sid = (from: string): string => trace.calls.find((c) => c.from === from)!.sid;
    const [a, b, c, d] = ['+15558001', '+15558002', '+15558003', '+15558004'].map(sid);
    const [x, y, z] = ['+15559001', '+15559002', '+15559003'].map(sid);
    const events = trace.queueEvents.map((e) => {
      const who =
        'callSid' in e ? e.callSid : e.type === 'match' ? `${e.waiting.callSid}+${e.arriving.callSid}` : '';
      return `${e.at} ${e.type} ${who}`;
    });
    expect(events.filter((e) => !e.includes(' wait-loop '))).toEqual([
      `0 enqueue ${a}`,
      `1 enqueue ${b}`,
      // maxSize 2: the third agent cannot wait.
      `2 queue-full ${c}`,
      // The longest-waiting agent is served first; the one behind moves up.
      `10 match ${a}+${x}`,
      '10 position-change ',
      `10 join ${x}`,
      `11 match ${b}+${y}`,
      `11 join ${y}`,
      `11.2 bridge ${a}`,
      `12.2 bridge ${b}`,
      // Customers hang up and none is queued: rejoin=false drops, rejoin=true waits again.
      `16 bridge-end ${b}`,
      `16 drop ${b}`,
      `25 bridge-end ${a}`,
      `25 rejoin ${a}`,
      `25 enqueue ${a}`,
      `45 enqueue ${d}`,
      `48 leave ${d}`,
      `60 leave ${a}`,
      // Nobody left to take the last customer: the Dial timeout (20 s) ends its wait.
      `70 enqueue ${z}`,
      `90 timeout ${z}`,
    ]);
    const results = trace.requests
      .filter((r) => r.url.endsWith('-done'))
      .map((r) => [r.at, r.callSid, r.params.QueueResult ?? r.params.DialCallStatus, r.params.QueueTime]);
    expect(results).toEqual([
      [2, c, 'queue-full', '0'],
      [16, y, 'completed', undefined],
      [16, b, 'bridged', '10'],
      [25, x, 'completed', undefined],
      [48, d, 'leave', '3'],
      [60, a, 'hangup', '35'],
      [90, z, 'no-answer', undefined],
    ]);
    expect(trace.calls.every((call) => call.status === 'completed')).toBe(true);
    expect(() => validateScenario({ ...JSON.parse(text), queues: { maxSize: 5001 } })).toThrow(
      '$.queues.maxSize',
    );
  });
});
