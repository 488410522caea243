import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, runScenario, ScenarioError } from '../../src/sim/index.js';

const text = readFileSync(new URL('../../fixtures/scenarios/conference.json', import.meta.url), 'utf8');

describe('scenario conferences', () => {
  it('mutes and unmutes a participant at given times, by room name, and traces beeps', async () => {
    const trace = await runScenario(parseScenario(text));
    const [host, guest] = trace.calls;
    const events = trace.connections.flatMap((c) =>
      c.type === 'conference' ? [[c.at, c.action, c.callSid ?? null]] : [],
    );
    expect(events).toEqual([
      [0, 'join', host.sid],
      [0, 'start', null],
      [0, 'beep', host.sid],
      [5, 'join', guest.sid],
      [20, 'mute', guest.sid],
      [30, 'unmute', guest.sid],
      [55, 'leave', guest.sid],
      [60, 'leave', host.sid],
      [60, 'end', null],
    ]);
    expect(trace.timeline).toContainEqual({
      at: 40,
      callSid: host.sid,
      event: "mute refused: no conference named or with sid 'retro'",
    });
    expect(trace.timeline.some((l) => l.event.endsWith(': beep on join (0.5 s)'))).toBe(true);
  });

  it('mutes by conference sid too, and names bad mute entries by path', async () => {
    const first = await runScenario(parseScenario(text));
    const sid = first.connections.find((c) => c.type === 'conference')?.conferenceSid;
    const bySid = JSON.parse(text);
    bySid.mute = [{ at: 20, conference: sid, callSid: first.calls[1].sid, muted: true }];
    const trace = await runScenario(parseScenario(JSON.stringify(bySid)));
    expect(trace.connections.filter((c) => c.type === 'conference' && c.action === 'mute')).toHaveLength(1);

    const problem = (mute: unknown[]): string => {
      const bad = { ...JSON.parse(text), mute };
      try {
        parseScenario(JSON.stringify(bad));
      } catch (err) {
        expect(err).toBeInstanceOf(ScenarioError);
        return (err as Error).message;
      }
      return expect.unreachable();
    };
    expect(problem([{ at: 1, conference: 'x', muted: 'yes', callIndex: 0 }])).toContain('$.mute[0].muted');
    expect(problem([{ at: 1, conference: 'x', muted: true }])).toContain(
      '$.mute[0]: give exactly one of callSid or callIndex',
    );
    expect(problem([{ at: 1, conference: 'x', callIndex: 7, muted: true }])).toContain(
      '$.mute[0].callIndex: no call 7',
    );
  });
});
