import { describe, expect, it } from 'vitest';
import { formatTrace, parseScenario, runScenario } from '../../src/sim/index.js';

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
});
