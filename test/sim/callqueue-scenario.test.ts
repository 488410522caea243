import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, runScenario } from '../../src/sim/index.js';

const text = readFileSync(new URL('../../fixtures/scenarios/callqueue.json', import.meta.url), 'utf8');

describe('the Call Queuing scenario', () => {
  it('serves customers FIFO with rejoin, drop and a Dial timeout, reporting every status to the callback', async () => {
    const trace = await runScenario(parseScenario(text));
    const sid = (from: string) =>
      trace.calls.find((c) => c.from === from && c.direction === 'inbound')?.sid as string;
    const [c1, c2, c3, c4] = ['+15550001', '+15550002', '+15550003', '+15550004'].map(sid);
    const [a1, a2] = ['+15559001', '+15559002'].map(sid);

    // FIFO: A1 takes C1, A2 takes C2; A1 (rejoin) later takes C4.
    const matches = trace.queueEvents.flatMap((e) =>
      e.type === 'match' ? [`${e.at} ${e.waiting.callSid}+${e.arriving.callSid}`] : [],
    );
    expect(matches).toEqual([`10 ${c1}+${a1}`, `20 ${c2}+${a2}`, `52 ${a1}+${c4}`]);
    const other = trace.queueEvents
      .filter((e) => ['timeout', 'rejoin', 'drop'].includes(e.type))
      .map((e) => `${e.at} ${e.type} ${'callSid' in e ? e.callSid : ''}`);
    expect(other).toEqual([`32 timeout ${c3}`, `40 rejoin ${a1}`, `50 drop ${a2}`, `62 rejoin ${a1}`]);

    // C3 heard positions 3, 2, 1, then its Dial ended with no-answer.
    const heard = trace.requests
      .filter((r) => r.callSid === c3 && r.kind === 'queue-wait')
      .map((r) => r.params.QueuePosition)
      .filter((p, i, all) => p !== all[i - 1]);
    expect(heard).toEqual(['3', '2', '1']);
    const done = trace.requests.find((r) => r.callSid === c3 && r.url === 'http://cq.test/customer-done');
    expect(done?.params.DialCallStatus).toBe('no-answer');
    // A1 heard hold audio again after its customers left.
    expect(trace.requests.some((r) => r.callSid === a1 && r.kind === 'queue-wait' && r.at >= 40)).toBe(true);

    // Every status event reached the product's callback.
    for (const call of [c1, c2, c3, c4, a2]) {
      const statuses = trace.requests
        .filter((r) => r.callSid === call && r.kind === 'status-callback')
        .map((r) => `${r.url} ${r.params.CallStatus}`);
      expect(statuses).toEqual(
        ['ringing', 'in-progress', 'completed'].map((s) => `http://cq.test/callqueue/callback ${s}`),
      );
    }
    expect(trace.calls.find((c) => c.sid === a1)?.status).toBe('in-progress');
  });
});
