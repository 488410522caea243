import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/api/http/format.js';
import { callJson, callRep } from '../../src/api/platform/representations.js';
import type { CallRecord } from '../../src/engine/records.js';

const runs = process.env.RCML_DEEP ? 5000 : 500;
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const time = fc.integer({ min: 0, max: 4_102_444_800_000 });

const arbCall: fc.Arbitrary<CallRecord> = fc.record(
  {
    sid: fc.string(),
    accountSid: fc.string(),
    parentCallSid: optional(fc.string()),
    direction: fc.constantFrom('inbound', 'outbound-api', 'outbound-dial' as const),
    from: fc.string({ unit: 'binary' }),
    to: fc.string({ unit: 'binary' }),
    status: fc.constantFrom('queued', 'ringing', 'in-progress', 'completed', 'busy' as const),
    phoneNumberSid: optional(fc.string()),
    callerName: optional(fc.string({ unit: 'binary' })),
    forwardedFrom: optional(fc.string()),
    answeredBy: optional(fc.constantFrom('human', 'machine' as const)),
    instanceId: fc.string(),
    apiVersion: fc.string(),
    dateCreated: time,
    dateUpdated: time,
    startTime: optional(time),
    endTime: optional(time),
    duration: optional(fc.integer({ min: 0, max: 100_000 })),
    endedBy: optional(fc.constantFrom('caller', 'application', 'api', 'timeout', 'engine' as const)),
  },
  {
    requiredKeys: [
      'sid',
      'accountSid',
      'direction',
      'from',
      'to',
      'status',
      'instanceId',
      'apiVersion',
      'dateCreated',
      'dateUpdated',
    ],
  },
);

describe('call JSON', () => {
  it('is the same text as the field table rendered to JSON (property)', () => {
    fc.assert(
      fc.property(arbCall, (c) => {
        expect(JSON.stringify(callJson(c))).toBe(JSON.stringify(toJson(callRep(c))));
      }),
      { numRuns: runs },
    );
  });
});
