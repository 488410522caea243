import { describe, expect, it } from 'vitest';
import type { CallControl } from '../../../src/api/platform/call-control.js';
import { ACCOUNT_A, call } from '../../store/fixtures.js';
import { setup } from '../harness.js';

const refuse = async (): Promise<never> => {
  throw new Error('not used');
};

/** An engine whose simulation answers, for the body checks of `/sim`. */
const control: CallControl = {
  createCall: refuse,
  modifyCall: refuse,
  muteParticipant: refuse,
  sim: {
    incomingCall: refuse,
    setParty: refuse,
    setNumber: refuse,
    sendDigits: async () => undefined,
    sendSpeech: async () => undefined,
    advance: async (ms) => ms,
  },
};

describe('/sim bodies', () => {
  it('are validated by the schemas the document declares, with a 400 naming the field', async () => {
    const { json, form, store } = await setup(control);
    const live = call(1, { accountSid: ACCOUNT_A });
    await store.calls.put(live);
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/sim/Advance', {}, 'Seconds: is required'],
      ['/sim/Advance', { Seconds: '' }, 'Seconds: is required'],
      ['/sim/Advance', { Seconds: '-1' }, 'Seconds: expected a non-negative number, got "-1"'],
      [`/sim/Calls/${live.sid}/Digits`, {}, 'Digits: is required'],
      [
        `/sim/Calls/${live.sid}/Digits`,
        { Digits: '12a' },
        'Digits: expected keys 0-9, *, # (w waits half a second)',
      ],
      [`/sim/Calls/${live.sid}/Speech`, { Text: '' }, 'Text: is required'],
      ['/sim/Calls', { To: '+15550100' }, 'From: is required'],
    ];
    for (const [path, fields, message] of cases) {
      const { status, body } = await json(path, form(fields));
      expect([path, status, body.message]).toEqual([path, 400, message]);
    }
    expect((await json('/sim/Advance', form({ Seconds: '1.5' }))).body).toEqual({
      now: new Date(1500).toISOString(),
    });
    const digits = await json(`/sim/Calls/${live.sid}/Digits`, form({ Digits: '1w#' }));
    expect(digits.body).toEqual({ call_sid: live.sid, digits: '1w#' });
  });
});
