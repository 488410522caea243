import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConferenceRecord } from '../../src/engine/records.js';
import { BASE, rcml } from '../engine/harness.js';
import { REDIS_URL } from '../support/services.js';
import { peerCluster } from './peer-engines.js';

/** One document per combination of the two attributes that decide a room's life. */
const apps: Record<string, string> = { '/after': rcml('') };
for (const start of [true, false]) {
  for (const end of [true, false]) {
    apps[`/s${start}e${end}`] = rcml(
      `<Dial action="/after"><Conference startConferenceOnEnter="${start}" endConferenceOnExit="${end}">sales</Conference></Dial>`,
    );
  }
}

const caller = fc.record({
  node: fc.constantFrom(0, 1),
  at: fc.integer({ min: 0, max: 3 }),
  hangupAfter: fc.integer({ min: 1, max: 8 }),
  starter: fc.boolean(),
  ender: fc.boolean(),
});

describe.skipIf(!REDIS_URL)('conference rooms across two nodes (property)', () => {
  it('seat each call once, are recorded by one node, end exactly once, and every caller leaves once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(caller, { minLength: 1, maxLength: 5 }), async (callers) => {
        const c = await peerCluster([apps, apps]);
        try {
          const sids: Array<{ node: number; sid: string }> = [];
          for (let t = 0; t < 14; t++) {
            for (const [i, who] of callers.entries()) {
              if (who.at !== t) continue;
              const { h } = c.nodes[who.node];
              const number = `+2000${i}`;
              h.engine.setNumber(number, { voiceUrl: `${BASE}/s${who.starter}e${who.ender}` });
              h.engine.setParty(`+1000${i}`, { hangupAfter: who.hangupAfter });
              sids.push({ node: who.node, sid: h.engine.incomingCall(`+1000${i}`, number).sid });
            }
            await c.tick(1);
          }
          for (const { node, sid } of sids) {
            const { h } = c.nodes[node];
            expect(h.engine.getCall(sid)?.status).toBe('completed');
            const actions = h.requests.filter((r) => r.url === `${BASE}/after` && r.params.CallSid === sid);
            expect(actions).toHaveLength(1);
          }
          const byRoom = new Map<string, { node: number; records: ConferenceRecord[] }>();
          for (const [node, { h }] of c.nodes.entries()) {
            for (const record of h.conferences) {
              const seen = byRoom.get(record.sid) ?? { node, records: [] };
              // One node runs a room and alone records it.
              expect(seen.node).toBe(node);
              seen.records.push(record);
              byRoom.set(record.sid, seen);
            }
          }
          const seated = new Set<string>();
          for (const [sid, { node, records }] of byRoom) {
            for (const r of records) {
              const calls = r.participants.map((p) => p.callSid);
              expect(new Set(calls).size).toBe(calls.length);
              for (const call of calls) seated.add(call);
            }
            expect(records.at(-1)).toMatchObject({ status: 'completed', participants: [] });
            const ends = c.nodes[node].h.events.filter(
              (e) => e.type === 'conference' && e.conferenceSid === sid && e.action === 'end',
            );
            expect(ends).toHaveLength(1);
          }
          // Every call sat in a room (no room is full at five).
          expect([...seated].sort()).toEqual(sids.map((s) => s.sid).sort());
        } finally {
          await c.close();
        }
      }),
      { numRuns: 12, seed: 20261127, endOnFailure: true },
    );
  });
});
