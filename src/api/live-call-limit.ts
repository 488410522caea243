/**
 * The most live calls an account may hold on a server: a `POST Calls` (or `/sim` inbound call)
 * beyond it is refused with 429 (`too-many-live-calls`, code 21230).
 */
import { type CallRecord, TERMINAL_STATUSES } from '../engine/records.js';
import { type CallControl, CallControlError } from './platform/call-control.js';

/** Live calls per account, followed from the call records an engine reports. */
export interface LiveCallCounter {
  /** Told of every call record change (wire it into the engine's record sink). */
  observe(call: Readonly<CallRecord>): void;
  /** Calls of the account not yet in a terminal status (Dial legs included). */
  count(accountSid: string): number;
}

export function createLiveCallCounter(): LiveCallCounter {
  const owners = new Map<string, string>();
  const counts = new Map<string, number>();
  const add = (accountSid: string, delta: number) => {
    const n = (counts.get(accountSid) ?? 0) + delta;
    if (n === 0) counts.delete(accountSid);
    else counts.set(accountSid, n);
  };
  return {
    observe(call) {
      const owner = owners.get(call.sid);
      const live = !TERMINAL_STATUSES.has(call.status);
      if (owner !== undefined && (!live || owner !== call.accountSid)) {
        owners.delete(call.sid);
        add(owner, -1);
      }
      if (live && owners.get(call.sid) === undefined) {
        owners.set(call.sid, call.accountSid);
        add(call.accountSid, 1);
      }
    },
    count: (accountSid) => counts.get(accountSid) ?? 0,
  };
}

/** `control` refusing new calls of an account that holds `max` live calls already. */
export function limitLiveCalls(control: CallControl, counter: LiveCallCounter, max: number): CallControl {
  if (!Number.isInteger(max) || max < 1)
    throw new Error(`maxLiveCalls must be a whole number >= 1, got ${max}`);
  const check = (accountSid: string) => {
    const live = counter.count(accountSid);
    if (live >= max) {
      throw new CallControlError(
        'too-many-live-calls',
        `account ${accountSid} has ${live} live calls, the most this server allows (${max}); retry when one ends`,
      );
    }
  };
  const sim = control.sim;
  return {
    createCall: async (accountSid, params) => {
      check(accountSid);
      return control.createCall(accountSid, params);
    },
    modifyCall: (accountSid, callSid, params) => control.modifyCall(accountSid, callSid, params),
    muteParticipant: (accountSid, conferenceSid, callSid, mute) =>
      control.muteParticipant(accountSid, conferenceSid, callSid, mute),
    listConferences: control.listConferences?.bind(control),
    sim: sim && {
      ...sim,
      incomingCall: async (accountSid, params) => {
        check(accountSid);
        return sim.incomingCall(accountSid, params);
      },
    },
  };
}
