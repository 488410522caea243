import { afterEach, describe, expect, it } from 'vitest';
import { dropRoomClaims } from '../../src/cluster/room-claims.js';
import type { ConferenceRecord } from '../../src/engine/records.js';
import { BASE, type Harness, rcml } from '../engine/harness.js';
import { REDIS_URL } from '../support/services.js';
import { type PeerCluster, peerCluster } from './peer-engines.js';

const GUEST = '+15550000001';
const HOST = '+15550000002';
const ENDER = '+15550000003';

let cluster: PeerCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const apps = {
  '/guest': rcml(
    `<Dial action="/after"><Conference startConferenceOnEnter="false" waitUrl="${BASE}/music">sales</Conference></Dial>`,
  ),
  '/host': rcml('<Dial action="/after"><Conference>sales</Conference></Dial>'),
  '/ender': rcml('<Dial action="/after"><Conference endConferenceOnExit="true">sales</Conference></Dial>'),
  '/music': rcml('<Say>please wait</Say>'),
  '/after': rcml('<Say>after</Say>'),
};

/** Two nodes with the same documents and numbers. */
async function twoNodes(): Promise<PeerCluster> {
  cluster = await peerCluster([apps, apps]);
  for (const { h } of cluster.nodes) {
    h.engine.setNumber(GUEST, { voiceUrl: `${BASE}/guest` });
    h.engine.setNumber(HOST, { voiceUrl: `${BASE}/host` });
    h.engine.setNumber(ENDER, { voiceUrl: `${BASE}/ender` });
  }
  return cluster;
}

const actions = (h: Harness, room?: string) =>
  h.events.flatMap((e) =>
    e.type === 'conference' && (room === undefined || e.conferenceSid === room)
      ? [e.callSid ? `${e.action}:${e.callSid}` : e.action]
      : [],
  );
const afterOf = (h: Harness) =>
  h.requests.filter((r) => r.url === `${BASE}/after`).map((r) => r.params.CallSid);
const last = (h: Harness): ConferenceRecord | undefined => h.conferences.at(-1);
const seats = (r: ConferenceRecord | undefined) => r?.participants.map((p) => p.callSid);

describe.skipIf(!REDIS_URL)('a conference across two nodes', () => {
  it('is one room: the guest of one node waits until the host of the other starts it', async () => {
    const c = await twoNodes();
    const [one, two] = c.nodes;
    const guest = one.h.engine.incomingCall('+1', GUEST).sid;
    await c.tick(5);
    const [room] = one.h.engine.listConferences();
    expect(room.status).toBe('init');
    const host = two.h.engine.incomingCall('+2', HOST).sid;
    for (let i = 0; i < 3; i++) await c.tick(1);

    // Node two holds a mirror of node one's room, with its own call in it.
    expect(two.h.engine.getConference(room.sid)).toMatchObject({ status: 'in-progress' });
    expect(seats(two.h.engine.getConference(room.sid))).toEqual([host]);
    // The owner runs the room for both and alone records it.
    expect(one.h.engine.getConference(room.sid)?.status).toBe('in-progress');
    expect(seats(last(one.h))).toEqual([guest, host]);
    expect(two.h.conferences).toEqual([]);
    // The guest heard the wait music until the start woke it, then stayed.
    expect(one.h.requests.filter((r) => r.kind === 'conference-wait')).toHaveLength(1);
    expect(actions(one.h, room.sid)).toEqual([`join:${guest}`, 'start', `beep:${host}`]);
    expect(actions(two.h, room.sid)).toEqual(['start', `join:${host}`]);
    expect(one.h.engine.getCall(guest)?.status).toBe('in-progress');

    // The host hangs up: the guest goes on alone; then the guest, and the room closes.
    two.h.engine.hangupParty(host);
    await c.tick(1);
    expect(seats(last(one.h))).toEqual([guest]);
    expect(last(one.h)?.status).toBe('in-progress');
    one.h.engine.hangupParty(guest);
    await c.tick(1);
    expect(last(one.h)).toMatchObject({ status: 'completed', participants: [] });
    expect(afterOf(one.h)).toEqual([guest]);
    expect(afterOf(two.h)).toEqual([host]);

    // The name is free again: the next caller, on node two, opens a new room there.
    const next = two.h.engine.incomingCall('+3', HOST).sid;
    await c.tick(1);
    const fresh = last(two.h);
    expect(fresh?.sid).not.toBe(room.sid);
    expect(seats(fresh)).toEqual([next]);
  });

  it('mutes a participant from either node and ends the room on every node when an ender leaves', async () => {
    const c = await twoNodes();
    const [one, two] = c.nodes;
    two.h.engine.setParty('+3', { hangupAfter: 20 });
    const host = one.h.engine.incomingCall('+1', HOST).sid;
    await c.tick(1);
    const guest = two.h.engine.incomingCall('+2', GUEST).sid;
    const ender = two.h.engine.incomingCall('+3', ENDER).sid;
    for (let i = 0; i < 3; i++) await c.tick(1);
    const [room] = one.h.engine.listConferences();
    expect(seats(last(one.h))).toEqual([host, guest, ender]);

    // Muted on the call's own node (where a REST mute is forwarded): the owner's record follows.
    two.h.engine.muteParticipant(room.sid, guest, true);
    await c.tick(0);
    expect(last(one.h)?.participants.find((p) => p.callSid === guest)?.muted).toBe(true);
    // Muted on the owner: the call's node applies it.
    one.h.engine.muteParticipant(room.sid, ender, true);
    await c.tick(0);
    expect(two.h.engine.getConference(room.sid)?.participants.find((p) => p.callSid === ender)?.muted).toBe(
      true,
    );
    expect(actions(two.h, room.sid).filter((a) => a.startsWith('mute'))).toEqual([
      `mute:${guest}`,
      `mute:${ender}`,
    ]);

    // The ender hangs up at 20 s: the room ends for the host on node one and the guest on two.
    for (let i = 0; i < 20; i++) await c.tick(1);
    expect(last(one.h)).toMatchObject({ status: 'completed', participants: [] });
    expect(actions(one.h, room.sid).filter((a) => a === 'end')).toHaveLength(1);
    expect(actions(two.h, room.sid).filter((a) => a === 'end')).toHaveLength(1);
    expect(afterOf(one.h)).toEqual([host]);
    expect(afterOf(two.h).sort()).toEqual([ender, guest].sort());
    expect(one.h.verbs(host)).toEqual(['Dial', 'Say']);
  });

  it("ends a dead owner's room for the calls of the survivor, whose next caller opens a new one", async () => {
    const c = await twoNodes();
    const [one, two] = c.nodes;
    one.h.engine.incomingCall('+1', HOST);
    await c.tick(1);
    const guest = two.h.engine.incomingCall('+2', HOST).sid;
    for (let i = 0; i < 3; i++) await c.tick(1);
    const [room] = one.h.engine.listConferences();
    expect(two.h.engine.getConference(room.sid)?.status).toBe('in-progress');

    // Node one stops answering; a survivor takes it over (its names are freed) and all hear it.
    await one.peers.close();
    await dropRoomClaims(two.redis, c.prefix, one.id);
    two.peers.endRoomsWith(one.id);
    await c.tick(1);
    expect(two.h.engine.getConference(room.sid)).toMatchObject({ status: 'completed', participants: [] });
    expect(afterOf(two.h)).toEqual([guest]);
    const next = two.h.engine.incomingCall('+3', HOST).sid;
    await c.tick(1);
    expect(last(two.h)).toMatchObject({ status: 'in-progress' });
    expect(seats(last(two.h))).toEqual([next]);
    expect(last(two.h)?.sid).not.toBe(room.sid);
  });

  it('stops asking for a seat when the caller hangs up before the owner answers', async () => {
    const c = await twoNodes();
    const [one, two] = c.nodes;
    one.h.engine.incomingCall('+1', HOST);
    await c.tick(1);
    // Node one stops reading its signals (not yet found dead): the join is never answered.
    await one.peers.close();
    const guest = two.h.engine.incomingCall('+2', HOST).sid;
    await c.tick(1);
    expect(two.h.engine.getCall(guest)?.status).toBe('in-progress');
    two.h.engine.hangupParty(guest);
    await c.tick(1);
    expect(two.h.engine.getCall(guest)?.status).toBe('completed');
    expect(two.h.engine.liveCount).toBe(0);
    expect(two.h.conferences).toEqual([]);
    // The seat it asked for is given back: the owner, reading again, would take it out at once.
    const sent = (await two.redis.xrange(`${c.prefix}:signals:${one.id}`, '-', '+')).flatMap(([, fields]) => {
      const signal = JSON.parse(fields[1]);
      return signal.t === 'room' ? [signal.room] : [];
    });
    expect(sent.map((r: { t: string; callSid: string }) => `${r.t}:${r.callSid}`)).toEqual([
      `join:${guest}`,
      `leave:${guest}`,
    ]);
  });

  it("takes a dead node's calls out of the owner's room, and ends it when one of them was an ender", async () => {
    const c = await twoNodes();
    const [one, two] = c.nodes;
    const host = one.h.engine.incomingCall('+1', HOST).sid;
    await c.tick(1);
    two.h.engine.incomingCall('+2', HOST);
    for (let i = 0; i < 3; i++) await c.tick(1);
    await two.peers.close();
    one.peers.endRoomsWith(two.id);
    await c.tick(1);
    expect(seats(last(one.h))).toEqual([host]);
    expect(last(one.h)?.status).toBe('in-progress');

    const c2 = await twoNodes();
    const [three, four] = c2.nodes;
    const stays = three.h.engine.incomingCall('+1', HOST).sid;
    await c2.tick(1);
    four.h.engine.incomingCall('+2', ENDER);
    for (let i = 0; i < 3; i++) await c2.tick(1);
    await four.peers.close();
    three.peers.endRoomsWith(four.id);
    await c2.tick(1);
    expect(last(three.h)).toMatchObject({ status: 'completed', participants: [] });
    expect(afterOf(three.h)).toEqual([stays]);
    await c.close();
  });
});
