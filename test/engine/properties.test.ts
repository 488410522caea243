import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERMINAL_STATUSES } from '../../src/engine/records.js';
import type { PartyBehaviour } from '../../src/engine/types.js';
import { BASE, harness, rcml } from './harness.js';

const leafVerb = fc.oneof(
  fc.constantFrom('<Say>Hello</Say>', '<Say loop="2">Menu options</Say>', '<Pause length="2"/>', '<Hangup/>'),
  fc.constantFrom(
    '<Reject/>',
    '<Reject reason="busy"/>',
    '<Sms>hi</Sms>',
    '<Unknown/>',
    '<Play>/a.wav</Play>',
  ),
  fc.constantFrom(
    '<Gather numDigits="1" timeout="2" action="/leaf"><Say>Press</Say></Gather>',
    '<Gather input="speech" timeout="1" action="/leaf" actionOnEmptyResult="true"/>',
    '<Record maxLength="3" action="/leaf"/>',
    '<Record timeout="1"/>',
  ),
);
const document = fc.array(fc.oneof(leafVerb, fc.constant('<Redirect>/leaf</Redirect>')), { maxLength: 6 });
const party: fc.Arbitrary<PartyBehaviour> = fc.record(
  {
    outcome: fc.constantFrom('answer', 'answer', 'busy', 'no-answer', 'fail'),
    answerAfter: fc.integer({ min: 0, max: 20 }),
    digits: fc.array(
      fc.record({ at: fc.integer({ min: 0, max: 10 }), keys: fc.constantFrom('1', '#', '42#') }),
      {
        maxLength: 3,
      },
    ),
    speech: fc.array(
      fc.record({ at: fc.integer({ min: 0, max: 10 }), text: fc.constantFrom('yes', 'sales') }),
      {
        maxLength: 2,
      },
    ),
    hangupAfter: fc.double({ min: 0.1, max: 30, noNaN: true }),
  },
  { requiredKeys: ['outcome'] },
);

describe('engine invariants', () => {
  it('property: every call ends terminal, EndTime >= StartTime, Duration = ceil, callbacks numbered 0..n-1', async () => {
    await fc.assert(
      fc.asyncProperty(
        document,
        // Leaf documents send their actions to an empty document, so no flow loops forever.
        fc.array(
          leafVerb.map((v) => v.replace('/leaf', '/end')),
          { maxLength: 3 },
        ),
        party,
        fc.boolean(),
        async (main, leaf, behaviour, inbound) => {
          const h = harness({ '/main': rcml(main.join('')), '/leaf': rcml(leaf.join('')), '/end': rcml('') });
          h.engine.registerHandler(`${BASE}/status`, () => ({
            status: 200,
            contentType: 'text/plain',
            body: '',
          }));
          h.engine.setParty('+1', behaviour);
          h.engine.setNumber('+2', { voiceUrl: `${BASE}/main`, statusCallback: `${BASE}/status` });
          const call = inbound
            ? h.engine.incomingCall('+1', '+2')
            : h.engine.createCall({
                From: '+2',
                To: '+1',
                Url: `${BASE}/main`,
                Timeout: 15,
                StatusCallback: `${BASE}/status`,
                StatusCallbackEvent: 'initiated,ringing,answered,completed',
              });
          expect(await h.engine.runUntilIdle(24 * 3600)).toBe(true);
          const done = h.engine.getCall(call.sid)!;
          expect(TERMINAL_STATUSES.has(done.status)).toBe(true);
          expect(done.endTime).toBeDefined();
          if (done.startTime !== undefined) {
            expect(done.endTime!).toBeGreaterThanOrEqual(done.startTime);
            expect(done.duration).toBe(Math.ceil((done.endTime! - done.startTime) / 1000));
          } else {
            expect(done.duration).toBe(0);
          }
          const seq = h.requests
            .filter((r) => r.kind === 'status-callback')
            .map((r) => Number(r.params.SequenceNumber));
          expect(seq).toEqual(seq.map((_, i) => i));
          expect(seq.length).toBeGreaterThan(0);
          expect(h.engine.liveCount).toBe(0);
        },
      ),
      { numRuns: process.env.RCML_DEEP ? 1000 : 100 },
    );
  });
});
