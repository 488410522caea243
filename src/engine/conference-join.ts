/**
 * Joining and leaving conference rooms, on a lone engine or across the nodes of a cluster (see
 * `conference-peers.ts`): the node that claims a room name first runs the room; a call of
 * another node asks it for a seat and sits in a mirror of the room on its own node.
 */
import type { Call } from './call.js';
import type { ConferencePeers, RoomSignal } from './conference-peers.js';
import {
  Conference,
  ConferenceRooms,
  emit,
  type OwnerAnswer,
  type Participant,
  type ParticipantOptions,
  report,
  seat,
  seatChanged,
  setStatus,
  unseat,
} from './conferences.js';
import type { ScriptSignal } from './script-signal.js';

/** A join's outcome: the room, and the call's seat unless the room was full. */
export interface Joined {
  room: Conference;
  seat?: Participant;
}

/** Claims of a room name lost to rooms that ended meanwhile before a join gives up (as full). */
const MAX_CLAIMS = 5;

/**
 * Joins `call` to the account's open room `name` (full at `max`: no seat). Synchronous on a
 * lone engine; across nodes it waits for the claim of the name and the owner's answer.
 */
export function joinRoom(
  call: Call,
  name: string,
  max: number,
  options: ParticipantOptions,
  signal?: ScriptSignal,
): Joined | Promise<Joined> {
  const rooms = ConferenceRooms.of(call.rt);
  const room = rooms.peers ? undefined : rooms.open(call.record.accountSid, name);
  return room ? seatHere(room, call, max, options) : joinAcross(rooms, call, name, max, options, signal);
}

/** Takes the call's seat out of its room: the owner applies the rules, a mirror tells the owner. */
export function leaveRoom(room: Conference, me: Participant): void {
  if (!room.mirror) {
    unseat(room, me);
    return;
  }
  if (room.participants.get(me.callSid) !== me) return;
  room.participants.delete(me.callSid);
  if (me.call?.conferenceSid === room.sid) me.call.conferenceSid = null;
  emit(room, me.callSid, 'leave');
  if (!room.ownerGone && room.owner !== undefined) {
    ConferenceRooms.of(room.rt).peers?.sendRoom(room.owner, {
      t: 'leave',
      sid: room.sid,
      callSid: me.callSid,
    });
  }
}

/** Lets the rooms of the engine whose runtime is `rt` span the nodes `peers` reaches. */
export function attachConferencePeers(rt: Call['rt'], peers: ConferencePeers): void {
  const rooms = ConferenceRooms.of(rt);
  rooms.peers = peers;
  peers.serveRooms({
    signal: (from, signal) => hear(rooms, peers, from, signal),
    nodeDead: (node) => nodeDead(rooms, node),
  });
}

function seatHere(room: Conference, call: Call, max: number, options: ParticipantOptions): Joined {
  const p: Participant = {
    callSid: call.record.sid,
    call,
    ...options,
    hold: false,
    joinedAt: call.rt.clock.now(),
  };
  return seat(room, p, max) ? { room, seat: p } : { room };
}

async function joinAcross(
  rooms: ConferenceRooms,
  call: Call,
  name: string,
  max: number,
  options: ParticipantOptions,
  signal?: ScriptSignal,
): Promise<Joined> {
  const peers = rooms.peers as ConferencePeers;
  const callSid = call.record.sid;
  // A call stopped while the owner is asked stops waiting; a seat the owner gives it meanwhile
  // is taken back by the leave that follows the join.
  signal?.onAbort(() => {
    const waiting = rooms.asking.get(callSid);
    if (!waiting) return;
    rooms.asking.delete(callSid);
    peers.sendRoom(waiting.node, { t: 'leave', sid: waiting.sid, callSid });
    waiting.resolve({ answer: 'full' });
  });
  let room: Conference | undefined;
  for (let claims = 0; claims < MAX_CLAIMS; claims++) {
    room = await openClaimed(rooms, peers, call.record.accountSid, name);
    if (signal?.aborted) return { room };
    if (room.owner === undefined) return seatHere(room, call, max, options);
    const owner = room.owner;
    const sid = room.sid;
    const joinedAt = call.rt.clock.now();
    const answer = await new Promise<OwnerAnswer>((resolve) => {
      rooms.asking.set(callSid, { node: owner, sid, resolve });
      peers.sendRoom(owner, {
        t: 'join',
        sid: (room as Conference).sid,
        callSid,
        terms: options,
        max,
        hold: call.media.held,
        joinedAt,
      });
    });
    if (answer.answer === 'full') return { room };
    if (answer.answer === 'gone') {
      // The room ended (or its node died) before the answer: the name is claimed afresh.
      rooms.drop(room);
      continue;
    }
    const p: Participant = { callSid, call, ...options, hold: false, joinedAt };
    room.participants.set(callSid, p);
    call.conferenceSid = room.sid;
    emit(room, callSid, 'join');
    if (answer.status && answer.status !== 'init' && answer.status !== room.status)
      setStatus(room, answer.status);
    return { room, seat: p };
  }
  return { room: room as Conference };
}

/** The current room of the name, or the room of the claim that holds it (claimed by this node if free). */
function openClaimed(
  rooms: ConferenceRooms,
  peers: ConferencePeers,
  accountSid: string,
  name: string,
): Promise<Conference> {
  const key = ConferenceRooms.key(accountSid, name);
  const found = rooms.currentRoom(key);
  if (found) return Promise.resolve(found);
  let pending = rooms.opening.get(key);
  if (!pending) {
    pending = claim(rooms, peers, accountSid, name).finally(() => rooms.opening.delete(key));
    rooms.opening.set(key, pending);
  }
  return pending;
}

async function claim(
  rooms: ConferenceRooms,
  peers: ConferencePeers,
  accountSid: string,
  name: string,
): Promise<Conference> {
  const rt = rooms.rt;
  const sid = rt.sids.next('CF');
  let held = await peers.claimRoom(accountSid, name, sid);
  if (held.node === peers.nodeId && held.sid !== sid) {
    // A room of this node that is over still holds the name (its release is on its way).
    const known = rooms.get(held.sid);
    if (known && known.status !== 'completed') return known;
    held = await peers.claimRoom(accountSid, name, sid, held);
  }
  const mine = held.node === peers.nodeId;
  const room = new Conference(rt, held.sid, accountSid, name, rt.clock.now(), mine ? undefined : held.node);
  rooms.add(room);
  return room;
}

function hear(rooms: ConferenceRooms, peers: ConferencePeers, from: string, s: RoomSignal): void {
  const room = rooms.get(s.sid);
  switch (s.t) {
    case 'join': {
      if (!room || room.mirror || room.status === 'completed') {
        peers.sendRoom(from, { t: 'joined', sid: s.sid, callSid: s.callSid, answer: 'gone' });
        return;
      }
      const p: Participant = {
        callSid: s.callSid,
        node: from,
        ...s.terms,
        hold: s.hold,
        joinedAt: s.joinedAt,
      };
      const seated = seat(room, p, s.max);
      peers.sendRoom(from, {
        t: 'joined',
        sid: s.sid,
        callSid: s.callSid,
        answer: seated ? 'seated' : 'full',
        status: room.status,
      });
      return;
    }
    case 'joined': {
      const waiting = rooms.asking.get(s.callSid);
      if (!waiting || waiting.node !== from) return;
      rooms.asking.delete(s.callSid);
      waiting.resolve({ answer: s.answer, status: s.status });
      return;
    }
    case 'leave': {
      const p = room?.participants.get(s.callSid);
      if (room && !room.mirror && p?.node === from) unseat(room, p);
      return;
    }
    case 'update': {
      const p = room?.participants.get(s.callSid);
      if (!room || room.mirror || p?.node !== from) return;
      p.muted = s.muted;
      p.hold = s.hold;
      report(room);
      return;
    }
    case 'mute': {
      const p = room?.participants.get(s.callSid);
      if (!room?.mirror || !p?.call || p.muted === s.muted) return;
      p.muted = s.muted;
      emit(room, p.callSid, s.muted ? 'mute' : 'unmute');
      seatChanged(room, p);
      return;
    }
    case 'status':
      if (room?.mirror && room.owner === from && s.status !== 'init') setStatus(room, s.status);
      return;
  }
}

/**
 * `node` died: joins waiting for its answer claim the name again, its calls leave the rooms
 * this node runs (as hang-ups: an ender among them ends the room), and the rooms it ran end
 * for this node's calls.
 */
function nodeDead(rooms: ConferenceRooms, node: string): void {
  for (const [callSid, waiting] of [...rooms.asking]) {
    if (waiting.node !== node) continue;
    rooms.asking.delete(callSid);
    waiting.resolve({ answer: 'gone' });
  }
  for (const room of rooms.list()) {
    if (room.status === 'completed') continue;
    if (room.owner === node) {
      room.ownerGone = true;
      setStatus(room, 'completed');
    } else if (!room.mirror) {
      for (const p of [...room.participants.values()]) if (p.node === node) unseat(room, p);
    }
  }
}
