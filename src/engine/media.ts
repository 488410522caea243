import type { Call } from './call.js';
import { reportParticipant } from './conferences.js';
import type { SessionDetailRecord } from './records.js';

/**
 * Puts a call on hold or takes it off: a re-invitation with a new media offer (`sendonly` /
 * `sendrecv`), written as a session detail record. The bridged peer hears hold audio meanwhile.
 * No change (already in that state) writes nothing.
 */
export function setHeld(call: Call, held: boolean): void {
  if (call.ended || call.media.held === held) return;
  call.setMedia({ held });
  call.line?.setDirection(held ? 'sendonly' : 'sendrecv');
  const rt = call.rt;
  const now = rt.clock.now();
  const record: SessionDetailRecord = {
    sid: rt.sids.next('SD'),
    accountSid: call.record.accountSid,
    callSid: call.record.sid,
    direction: held ? 'hold' : 'resume',
    offer: held ? 'sendonly' : 'sendrecv',
    dateCreated: now,
  };
  rt.sink.sessionDetail?.(record);
  reportParticipant(call);
  rt.listener?.({ type: 'media', at: now, callSid: call.record.sid, ...call.media });
}

/** Mutes or unmutes a call's media silently: no re-invitation, no record. */
export function setMuted(call: Call, muted: boolean): void {
  if (call.ended || call.media.muted === muted) return;
  call.setMedia({ muted });
  call.line?.mute(muted);
  call.rt.listener?.({ type: 'media', at: call.rt.clock.now(), callSid: call.record.sid, ...call.media });
}
