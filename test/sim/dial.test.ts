import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, runScenario, ScenarioError } from '../../src/sim/index.js';

const text = readFileSync(new URL('../../fixtures/scenarios/dial.json', import.meta.url), 'utf8');

describe('scenario Dial and modifications', () => {
  it('traces child legs, bridges, holds, session detail records and modifications', async () => {
    const trace = await runScenario(parseScenario(text));
    const [caller, bob, alice] = trace.calls;
    expect(trace.calls.map((c) => [c.direction, c.to, c.status, c.parentCallSid])).toEqual([
      ['inbound', '+15550100', 'completed', null],
      ['outbound-dial', '+15552222', 'completed', caller.sid],
      ['outbound-dial', 'client:alice', 'canceled', caller.sid],
    ]);
    expect(bob.duration).toBe(40);
    expect(alice.duration).toBe(0);
    const kinds = trace.connections.map((c) => `${c.type}${'action' in c ? ` ${c.action}` : ''}`);
    expect(kinds).toEqual(['leg', 'leg', 'bridge start', 'modify', 'media', 'media', 'bridge end']);
    expect(trace.sessionDetails.map((r) => [r.at, r.callSid, r.direction])).toEqual([
      [10, caller.sid, 'hold'],
      [15, caller.sid, 'resume'],
    ]);
    expect(trace.timeline.some((l) => l.event.startsWith('modification refused: no call'))).toBe(true);
    expect(trace.requests.find((r) => r.kind === 'action')?.params).toMatchObject({
      DialCallStatus: 'completed',
      DialCallSid: bob.sid,
      DialCallDuration: '40',
    });
    expect(trace.recordings).toHaveLength(1);
    expect(JSON.stringify(await runScenario(parseScenario(text)))).toBe(JSON.stringify(trace));
  });

  it('names bad modify entries by path', () => {
    const bad = JSON.parse(text);
    bad.modify = [
      { at: 1, callIndex: 5, params: { Url: 'x' } },
      { at: 1, params: { Status: 'done' } },
    ];
    try {
      parseScenario(JSON.stringify(bad));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError);
      const message = (err as Error).message;
      expect(message).toContain('$.modify[0].params.Url');
      expect(message).toContain('$.modify[1].params.Status');
    }
  });
});
