import type { Call } from './call.js';
import { EngineError } from './errors.js';
import type { ConferenceRecord, ConferenceStatus, ParticipantRecord } from './records.js';
import type { ConferenceAction } from './types.js';

export type { ConferenceStatus } from './records.js';

/** A participant as inspection shows it (the room record's). */
export type ParticipantInfo = ParticipantRecord;

/** A conference room as inspection shows it (its record). Times are ms since epoch. */
export type ConferenceInfo = ConferenceRecord;

/** A call in a room. `wake` interrupts its current wait (the room started or ended). */
export interface Participant {
  call: Call;
  muted: boolean;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  /** A tone sounds in the running room when this participant enters or leaves. */
  beep: boolean;
  joinedAt: number;
}

/** How a participant takes part (the Conference noun's attributes). */
export interface ParticipantOptions {
  muted: boolean;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  beep: boolean;
}

/** One conference room: participants by call sid, started by a starter, ended by an ender. */
export class Conference {
  status: ConferenceStatus = 'init';
  dateUpdated: number;
  readonly participants = new Map<string, Participant>();

  constructor(
    readonly sid: string,
    readonly accountSid: string,
    readonly name: string,
    readonly dateCreated: number,
  ) {
    this.dateUpdated = dateCreated;
  }

  /** Inspection snapshot. */
  info(): ConferenceInfo {
    return {
      sid: this.sid,
      accountSid: this.accountSid,
      friendlyName: this.name,
      status: this.status,
      dateCreated: this.dateCreated,
      dateUpdated: this.dateUpdated,
      participants: [...this.participants.values()].map((p) => ({
        callSid: p.call.record.sid,
        muted: p.muted,
        hold: p.call.media.held,
        startConferenceOnEnter: p.startConferenceOnEnter,
        endConferenceOnExit: p.endConferenceOnExit,
        joinedAt: p.joinedAt,
      })),
    };
  }
}

const roomsByEngine = new WeakMap<object, ConferenceRooms>();

/** The rooms of one engine: by sid, and the current room per account and name. */
export class ConferenceRooms {
  private readonly bySid = new Map<string, Conference>();
  private readonly current = new Map<string, Conference>();

  /** The rooms of the engine whose runtime is `rt` (created on first use). */
  static of(rt: object): ConferenceRooms {
    let rooms = roomsByEngine.get(rt);
    if (!rooms) {
      rooms = new ConferenceRooms();
      roomsByEngine.set(rt, rooms);
    }
    return rooms;
  }

  /** The open room named `name` (a room that has ended is replaced by a new one). */
  open(accountSid: string, name: string, newSid: () => string, now: number): Conference {
    const key = `${accountSid}\n${name}`;
    let room = this.current.get(key);
    if (!room || room.status === 'completed') {
      room = new Conference(newSid(), accountSid, name, now);
      this.current.set(key, room);
      this.bySid.set(room.sid, room);
    }
    return room;
  }

  get(sid: string): Conference | undefined {
    return this.bySid.get(sid);
  }

  list(): Conference[] {
    return [...this.bySid.values()];
  }
}

/**
 * Mutes or unmutes a participant of the engine whose runtime is `rt`. Throws
 * `unknown-conference`, or `unknown-call` when the call is not in that conference.
 */
export function muteParticipant(
  rt: object,
  conferenceSid: string,
  callSid: string,
  mute: boolean,
): ParticipantInfo {
  const room = ConferenceRooms.of(rt).get(conferenceSid);
  if (!room) throw new EngineError('unknown-conference', `no conference with sid '${conferenceSid}'`);
  const p = room.participants.get(callSid);
  if (!p) {
    throw new EngineError('unknown-call', `call '${callSid}' is not in conference '${conferenceSid}'`);
  }
  if (p.muted !== mute) {
    p.muted = mute;
    emit(room, p.call, mute ? 'mute' : 'unmute');
    report(room, p.call);
  }
  return room.info().participants.find((x) => x.callSid === callSid)!;
}

/** Reports a room event; `withCall` false for room-wide events (start, end). */
export function emit(room: Conference, call: Call, action: ConferenceAction, withCall = true): void {
  call.rt.listener?.({
    type: 'conference',
    at: call.rt.clock.now(),
    callSid: withCall ? call.record.sid : undefined,
    conferenceSid: room.sid,
    name: room.name,
    action,
  });
}

/**
 * Joins `call` to the account's open room `name` (full at `max`: no seat). A starter starts a
 * waiting room; a running room sounds the entry tone of a participant with `beep`.
 */
export function joinRoom(
  call: Call,
  name: string,
  max: number,
  options: ParticipantOptions,
): { room: Conference; seat?: Participant } {
  const rt = call.rt;
  const now = rt.clock.now();
  const room = ConferenceRooms.of(rt).open(call.record.accountSid, name, () => rt.sids.next('CF'), now);
  if (room.participants.size >= max) {
    report(room, call);
    return { room };
  }
  const seat: Participant = { call, ...options, joinedAt: now };
  room.participants.set(call.record.sid, seat);
  call.conferenceSid = room.sid;
  emit(room, call, 'join');
  if (seat.startConferenceOnEnter && room.status === 'init') setStatus(room, call, 'in-progress');
  // Only a running room beeps: callers still waiting for the start hear the wait music instead.
  if (seat.beep && room.status === 'in-progress') beep(room, call, 'join');
  report(room, call);
  return { room, seat };
}

/** Takes a participant out; an ender ends the room, the last one out closes it. */
export function leaveRoom(room: Conference, me: Participant): void {
  const call = me.call;
  if (room.participants.get(call.record.sid) !== me) return;
  room.participants.delete(call.record.sid);
  if (call.conferenceSid === room.sid) call.conferenceSid = null;
  emit(room, call, 'leave');
  if (room.status !== 'completed') {
    if ((me.endConferenceOnExit && room.status === 'in-progress') || room.participants.size === 0) {
      setStatus(room, call, 'completed');
    } else if (me.beep && room.status === 'in-progress') {
      beep(room, call, 'leave');
    }
  }
  report(room, call);
}

/** Tells the record sink the room's state (every change: status, participants, mute, hold). */
export function report(room: Conference, by: Call): void {
  by.rt.sink.conference?.(room.info());
}

/** Reports the room of `call` after a change of its media (hold), when it is in one. */
export function reportParticipant(call: Call): void {
  const sid = call.conferenceSid;
  const room = sid === null ? undefined : ConferenceRooms.of(call.rt).get(sid);
  if (room?.participants.has(call.record.sid)) report(room, call);
}

/** The entry or exit tone of a running room (an event: the tone takes no one's time). */
function beep(room: Conference, call: Call, on: 'join' | 'leave'): void {
  const rt = call.rt;
  rt.listener?.({
    type: 'conference',
    at: rt.clock.now(),
    callSid: call.record.sid,
    conferenceSid: room.sid,
    name: room.name,
    action: 'beep',
    tone: { on, seconds: rt.settings.beepSeconds },
  });
}

function setStatus(room: Conference, by: Call, status: 'in-progress' | 'completed'): void {
  room.status = status;
  room.dateUpdated = by.rt.clock.now();
  emit(room, by, status === 'in-progress' ? 'start' : 'end', false);
  // Everyone waiting for the start (or in a room that ended) stops waiting.
  for (const p of room.participants.values()) p.call.interrupt('conference');
}
