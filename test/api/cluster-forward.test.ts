import { describe, expect, it } from 'vitest';
import { liveCallTarget } from '../../src/api/cluster-forward.js';

const A = `AC${'a'.repeat(32)}`;
const C = `CA${'c'.repeat(32)}`;

describe('live-call writes a cluster node forwards', () => {
  it('are the POSTs that act on one live call, in every spelling of the API', () => {
    for (const path of [
      `/platform/2012-04-24/Accounts/${A}/Calls/${C}`,
      `/2012-04-24/Accounts/${A}/Calls/${C}.json`,
      `/2012-04-24/Accounts/${A}/Calls.json/${C}`,
      `/2010-04-01/Accounts/${A}/Calls/${C}.xml`,
      `/2012-04-24/Accounts/${A}/Conferences/CF1/Participants/${C}.json`,
    ]) {
      expect(liveCallTarget('POST', path), path).toEqual({ accountSid: A, callSid: C });
    }
    expect(liveCallTarget('POST', `/sim/Calls/${C}/Digits`)).toEqual({ accountSid: undefined, callSid: C });
    expect(liveCallTarget('POST', `/sim/Calls/${C}/Speech`)).toEqual({ accountSid: undefined, callSid: C });
  });

  it('leave reads, creations and other resources alone', () => {
    for (const [method, path] of [
      ['GET', `/2012-04-24/Accounts/${A}/Calls/${C}.json`],
      ['POST', `/2012-04-24/Accounts/${A}/Calls.json`],
      ['POST', `/2012-04-24/Accounts/${A}/Calls/${C}/Recordings.json`],
      ['POST', '/sim/Calls'],
      ['POST', '/sim/Advance'],
      ['POST', `/2012-04-24/Accounts/${A}/Applications/AP1.json`],
      ['DELETE', `/2012-04-24/Accounts/${A}/Recordings/RE1`],
    ]) {
      expect(liveCallTarget(method, path), `${method} ${path}`).toBeUndefined();
    }
  });
});
