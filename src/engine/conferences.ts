import type { Call } from './call.js';
import type { ConferencePeers, SeatTerms } from './conference-peers.js';
import { EngineError } from './errors.js';
import type { CallLine } from './ports/call-line.js';
import type { ConferenceMixer } from './ports/telephony.js';
import type { ConferenceRecord, ConferenceStatus, ParticipantRecord } from './records.js';
import type { ConferenceAction } from './types.js';

export type { ConferenceStatus } from './records.js';

/** A participant as inspection shows it (the room record's). */
export type ParticipantInfo = ParticipantRecord;

/** A conference room as inspection shows it (its record). Times are ms since epoch. */
export type ConferenceInfo = ConferenceRecord;

/** How a participant takes part (the Conference noun's attributes). */
export type ParticipantOptions = SeatTerms;

type Runtime = Call['rt'];

/**
 * A call in a room: `call` when it runs on this node, `node` when it runs on another (only the
 * room's owner seats those).
 */
export interface Participant extends ParticipantOptions {
  callSid: string;
  call?: Call;
  node?: string;
  /** On hold: a seat of another node's call, as that node told (a local seat reads its call). */
  hold: boolean;
  joinedAt: number;
}

/**
 * One conference room: participants by call sid, started by a starter, ended by an ender. On
 * the node that runs it (`owner` undefined) it holds every participant; on another node of a
 * cluster (`owner` names the room's node) it is a mirror holding that node's calls, whose
 * status follows the owner's.
 */
export class Conference {
  status: ConferenceStatus = 'init';
  dateUpdated: number;
  readonly participants = new Map<string, Participant>();
  /** A mirror whose owner died: nothing more is told to it. */
  ownerGone = false;
  /** The room's audio, from the engine's telephony, made when a call of this node first sits. */
  private audio: ConferenceMixer | null = null;

  constructor(
    readonly rt: Runtime,
    readonly sid: string,
    readonly accountSid: string,
    readonly name: string,
    readonly dateCreated: number,
    readonly owner?: string,
  ) {
    this.dateUpdated = dateCreated;
  }

  get mirror(): boolean {
    return this.owner !== undefined;
  }

  /** A call of this node sits: its line joins the room's audio (made on the first one). */
  joinAudio(line: CallLine, muted: boolean): void {
    if (this.status === 'completed') return;
    this.audio ??= this.rt.telephony.room(this.sid, this.name);
    this.audio.join(line, { muted });
  }

  /** The room's audio, while it has one (leaving, muting, tones). */
  get mixer(): ConferenceMixer | null {
    return this.audio;
  }

  /** The room is over: its audio stops. */
  closeMixer(): void {
    this.audio?.close();
    this.audio = null;
  }

  /** Inspection snapshot (a mirror's shows this node's calls). */
  info(): ConferenceInfo {
    return {
      sid: this.sid,
      accountSid: this.accountSid,
      friendlyName: this.name,
      status: this.status,
      dateCreated: this.dateCreated,
      dateUpdated: this.dateUpdated,
      participants: [...this.participants.values()].map((p) => ({
        callSid: p.callSid,
        muted: p.muted,
        hold: p.call ? p.call.media.held : p.hold,
        startConferenceOnEnter: p.startConferenceOnEnter,
        endConferenceOnExit: p.endConferenceOnExit,
        joinedAt: p.joinedAt,
      })),
    };
  }
}

const roomsByEngine = new WeakMap<object, ConferenceRooms>();

/** What a join waiting for the owner's answer hears. */
export interface OwnerAnswer {
  answer: 'seated' | 'full' | 'gone';
  status?: ConferenceStatus;
}

/** Ended rooms an engine without `retainCalls` keeps in memory. */
export const ENDED_ROOMS_KEPT = 1000;

/** The rooms of one engine: by sid, and the current room per account and name. */
export class ConferenceRooms {
  private readonly bySid = new Map<string, Conference>();
  private readonly current = new Map<string, Conference>();
  /** Sids of ended rooms, oldest first (kept only without `retainCalls`). */
  private readonly ended: string[] = [];
  /** How rooms reach the other nodes of a cluster; undefined on a lone engine. */
  peers: ConferencePeers | undefined;
  /** Claims of a name under way, by key: joins meanwhile wait for the same one. */
  readonly opening = new Map<string, Promise<Conference>>();
  /** Joins of this node's calls waiting for another node's answer, by call sid. */
  readonly asking = new Map<string, { node: string; sid: string; resolve(answer: OwnerAnswer): void }>();

  constructor(readonly rt: Runtime) {}

  /** The rooms of the engine whose runtime is `rt` (created on first use). */
  static of(rt: Runtime): ConferenceRooms {
    let rooms = roomsByEngine.get(rt);
    if (!rooms) {
      rooms = new ConferenceRooms(rt);
      roomsByEngine.set(rt, rooms);
    }
    return rooms;
  }

  static key(accountSid: string, name: string): string {
    return `${accountSid}\n${name}`;
  }

  /** The open room of that key, if any (one that ended is no longer current). */
  currentRoom(key: string): Conference | undefined {
    const room = this.current.get(key);
    return room && room.status !== 'completed' ? room : undefined;
  }

  /** The open room named `name` on a lone engine (a room that has ended is replaced by a new one). */
  open(accountSid: string, name: string): Conference {
    const key = ConferenceRooms.key(accountSid, name);
    const found = this.currentRoom(key);
    if (found) return found;
    const room = new Conference(this.rt, this.rt.sids.next('CF'), accountSid, name, this.rt.clock.now());
    this.add(room);
    return room;
  }

  /** Makes `room` the current one of its name. */
  add(room: Conference): void {
    this.current.set(ConferenceRooms.key(room.accountSid, room.name), room);
    this.bySid.set(room.sid, room);
  }

  /** `room` is no longer the current one of its name (it ended, or its owner let it go). */
  drop(room: Conference): void {
    const key = ConferenceRooms.key(room.accountSid, room.name);
    if (this.current.get(key) === room) this.current.delete(key);
    // An engine that keeps no ended calls keeps only the latest ended rooms (the store has them
    // all): late signals and inspection still find a room that just ended, memory stays bounded.
    if (room.status !== 'completed' || this.rt.retainCalls) return;
    this.ended.push(room.sid);
    if (this.ended.length > ENDED_ROOMS_KEPT) {
      const oldest = this.ended.shift() as string;
      if (this.bySid.get(oldest)?.status === 'completed') this.bySid.delete(oldest);
    }
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
  rt: Runtime,
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
    if (p.call?.line) room.mixer?.mute(p.call.line, mute);
    if (p.call) emit(room, callSid, mute ? 'mute' : 'unmute');
    seatChanged(room, p);
  }
  return room.info().participants.find((x) => x.callSid === callSid)!;
}

/**
 * A seat's mute or hold changed: the owner records the room (and has a call of another node
 * muted there); a mirror tells the owner.
 */
export function seatChanged(room: Conference, p: Participant): void {
  const peers = ConferenceRooms.of(room.rt).peers;
  if (room.owner !== undefined) {
    if (!room.ownerGone) {
      peers?.sendRoom(room.owner, {
        t: 'update',
        sid: room.sid,
        callSid: p.callSid,
        muted: p.muted,
        hold: p.call ? p.call.media.held : p.hold,
      });
    }
    return;
  }
  if (p.node !== undefined)
    peers?.sendRoom(p.node, { t: 'mute', sid: room.sid, callSid: p.callSid, muted: p.muted });
  report(room);
}

/** Reports a room event: `callSid` undefined for room-wide events (start, end). */
export function emit(room: Conference, callSid: string | undefined, action: ConferenceAction): void {
  room.rt.listener?.({
    type: 'conference',
    at: room.rt.clock.now(),
    callSid,
    conferenceSid: room.sid,
    name: room.name,
    action,
  });
}

/**
 * Seats `p` in a room this node runs (full at `max`: false). A starter starts a waiting room;
 * a running room sounds the entry tone of a participant with `beep`.
 */
export function seat(room: Conference, p: Participant, max: number): boolean {
  if (room.participants.size >= max) {
    report(room);
    return false;
  }
  room.participants.set(p.callSid, p);
  if (p.call) {
    p.call.conferenceSid = room.sid;
    if (p.call.line) room.joinAudio(p.call.line, p.muted);
    emit(room, p.callSid, 'join');
  }
  if (p.startConferenceOnEnter && room.status === 'init') setStatus(room, 'in-progress');
  // Only a running room beeps: callers still waiting for the start hear the wait music instead.
  if (p.beep && room.status === 'in-progress') beep(room, p.callSid, 'join');
  report(room);
  return true;
}

/** Takes a seat out of a room this node runs; an ender ends the room, the last one out closes it. */
export function unseat(room: Conference, me: Participant): void {
  if (room.participants.get(me.callSid) !== me) return;
  room.participants.delete(me.callSid);
  if (me.call) {
    if (me.call.conferenceSid === room.sid) me.call.conferenceSid = null;
    if (me.call.line) room.mixer?.leave(me.call.line);
    emit(room, me.callSid, 'leave');
  }
  if (room.status !== 'completed') {
    if ((me.endConferenceOnExit && room.status === 'in-progress') || room.participants.size === 0) {
      setStatus(room, 'completed');
    } else if (me.beep && room.status === 'in-progress') {
      beep(room, me.callSid, 'leave');
    }
  }
  report(room);
}

/** Tells the record sink the state of a room this node runs (a mirror's is the owner's to tell). */
export function report(room: Conference): void {
  if (!room.mirror) room.rt.sink.conference?.(room.info());
}

/** The room of `call` after a change of its media (hold), when it is in one. */
export function reportParticipant(call: Call): void {
  const sid = call.conferenceSid;
  const room = sid === null ? undefined : ConferenceRooms.of(call.rt).get(sid);
  const p = room?.participants.get(call.record.sid);
  if (room && p) seatChanged(room, p);
}

/** The entry or exit tone of a running room (an event: the tone takes no one's time). */
function beep(room: Conference, callSid: string, on: 'join' | 'leave'): void {
  const rt = room.rt;
  rt.listener?.({
    type: 'conference',
    at: rt.clock.now(),
    callSid,
    conferenceSid: room.sid,
    name: room.name,
    action: 'beep',
    tone: { on, seconds: rt.settings.beepSeconds },
  });
  room.mixer?.play({ kind: 'beep', seconds: rt.settings.beepSeconds }, ignore);
}

const ignore = (): void => {};

const RANK: Record<ConferenceStatus, number> = { init: 0, 'in-progress': 1, completed: 2 };

/**
 * The room starts or ends: this node's calls waiting for the start (or in a room that ended)
 * stop waiting. The owner tells the nodes of its other participants, and lets the name go
 * once the room is over. A status never goes back.
 */
export function setStatus(room: Conference, status: 'in-progress' | 'completed'): void {
  if (RANK[status] <= RANK[room.status]) return;
  room.status = status;
  room.dateUpdated = room.rt.clock.now();
  emit(room, undefined, status === 'in-progress' ? 'start' : 'end');
  const rooms = ConferenceRooms.of(room.rt);
  if (status === 'completed') {
    rooms.drop(room);
    room.closeMixer();
  }
  if (!room.mirror && rooms.peers) {
    const peers = rooms.peers;
    const nodes = new Set([...room.participants.values()].flatMap((p) => (p.node ? [p.node] : [])));
    const tell = () => {
      for (const node of nodes) peers.sendRoom(node, { t: 'status', sid: room.sid, status });
    };
    // The name is free before the others hear the end, so a join they start then finds it free.
    if (status === 'completed') void peers.releaseRoom(room.accountSid, room.name, room.sid).then(tell);
    else tell();
  }
  for (const p of [...room.participants.values()]) p.call?.interrupt('conference');
}
