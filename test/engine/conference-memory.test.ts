/** What an engine keeps of ended conference rooms: all with `retainCalls`, else the latest. */
import { describe, expect, it } from 'vitest';
import { ENDED_ROOMS_KEPT } from '../../src/engine/conferences.js';
import { createEngine } from '../../src/engine/index.js';

async function roomsAfter(calls: number, retainCalls: boolean) {
  const engine = createEngine({ seed: 3, retainCalls });
  // Each caller has a room of its own (named by the caller) and leaves it a second in.
  engine.registerHandler('http://app/conf', (req) => ({
    status: 200,
    contentType: 'text/xml',
    body: `<Response><Dial><Conference>room-${req.params.From}</Conference></Dial></Response>`,
  }));
  engine.setNumber('+1000', { voiceUrl: 'http://app/conf' });
  engine.setDefaultParty({ hangupAfter: 1 });
  for (let i = 0; i < calls; i++) engine.incomingCall(`+1${String(i).padStart(6, '0')}`, '+1000');
  await engine.runUntilIdle();
  const rooms = engine.listConferences();
  await engine.close();
  return rooms;
}

describe('ended conference rooms in memory', () => {
  it('an engine that keeps no ended calls keeps only the latest ended rooms', async () => {
    const calls = ENDED_ROOMS_KEPT + 50;
    const rooms = await roomsAfter(calls, false);
    expect(rooms).toHaveLength(ENDED_ROOMS_KEPT);
    expect(rooms.every((r) => r.status === 'completed')).toBe(true);
    // The oldest went: the rooms kept are the last ones opened.
    expect(rooms.map((r) => r.friendlyName)).toContain(`room-+1${String(calls - 1).padStart(6, '0')}`);
    expect(rooms.map((r) => r.friendlyName)).not.toContain('room-+1000000');
  });

  it('an engine that keeps its calls keeps every room', async () => {
    const rooms = await roomsAfter(ENDED_ROOMS_KEPT + 50, true);
    expect(rooms).toHaveLength(ENDED_ROOMS_KEPT + 50);
  });
});
