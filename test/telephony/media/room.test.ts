import type dgram from 'node:dgram';
import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { Histogram } from '../../../src/telephony/media/histogram.js';
import type { Codec, MediaEvent } from '../../../src/telephony/media/protocol.js';
import { ConferenceRoom } from '../../../src/telephony/media/room.js';
import { readRtp, writeRtp } from '../../../src/telephony/media/rtp.js';
import { MediaSession } from '../../../src/telephony/media/session.js';

const events: MediaEvent[] = [];
const emit = (event: MediaEvent) => events.push(event);

/** A session over a fake socket: packets handed to `receive`, the ones it sends kept in `sent`. */
function member(id: number, codec: Codec) {
  let deliver: (packet: Buffer) => void = () => {};
  const sent: Buffer[] = [];
  const socket = {
    // Every packet comes from the far end's SDP address (where the session sends).
    on: (_event: string, fn: (packet: Buffer, from: { address: string; port: number }) => void) => {
      deliver = (packet) => fn(packet, { address: '127.0.0.1', port: 9 });
    },
    send: (packet: Buffer) => sent.push(packet),
    close: () => {},
  } as unknown as dgram.Socket;
  const pt = codec === 'PCMU' ? 0 : 8;
  const media = new MediaSession(
    {
      type: 'open',
      id,
      codec,
      payloadType: pt,
      remote: { address: '127.0.0.1', port: 9 },
      send: true,
      receive: true,
    },
    socket,
    emit,
    { sent: 0, received: 0, lost: 0, rejected: 0, interArrival: new Histogram() },
  );
  let sequence = 1000 * id;
  const encode = (pcm: Int16Array) =>
    codec === 'PCMU' ? alawmulaw.mulaw.encode(pcm) : alawmulaw.alaw.encode(pcm);
  const decode = (bytes: Uint8Array) =>
    codec === 'PCMU' ? alawmulaw.mulaw.decode(bytes) : alawmulaw.alaw.decode(bytes);
  return {
    media,
    sent,
    /** The far end sends a 20 ms frame of constant `value`. */
    speak(value: number) {
      const payload = encode(new Int16Array(160).fill(value));
      deliver(
        writeRtp({ payloadType: pt, marker: false, sequence: sequence++, timestamp: 0, ssrc: id }, payload),
      );
    },
    /** What the far end heard in the last packet: its first sample, decoded. */
    heard(): number {
      const rtp = readRtp(sent[sent.length - 1] as Buffer);
      return decode(new Uint8Array(rtp?.payload ?? []))[0] ?? Number.NaN;
    },
  };
}

type Member = ReturnType<typeof member>;

/** Equal within G.711's precision (about 3 % of the level, and a few steps near zero). */
function near(heard: number | undefined, expected: number) {
  expect(Math.abs((heard ?? Number.NaN) - expected)).toBeLessThanOrEqual(expected * 0.04 + 16);
}

/** One pacing-loop step: the room mixes, then every session sends. */
function tick(room: ConferenceRoom, members: Member[]) {
  room.tick();
  for (const m of members) m.media.tick();
}

/** Each far end speaks one frame per tick; 3 ticks fill the 40 ms jitter buffers and the mix flows. */
function talk(room: ConferenceRoom, members: Member[], values: number[], ticks = 4) {
  for (let t = 0; t < ticks; t++) {
    members.forEach((m, i) => {
      m.speak(values[i] as number);
    });
    tick(room, members);
  }
}

describe('conference room in the media worker', () => {
  it('sends each member the others summed, not itself, in its own codec and its own continuing RTP stream', () => {
    const members = [member(1, 'PCMU'), member(2, 'PCMA'), member(3, 'PCMU')];
    for (const m of members) m.media.tick();
    const room = new ConferenceRoom(1, emit);
    for (const m of members) room.join(m.media, false);
    talk(room, members, [1000, 2000, 4000]);
    near(members[0]?.heard(), 6000);
    near(members[1]?.heard(), 5000);
    near(members[2]?.heard(), 3000);
    for (const m of members) {
      const packets = m.sent.map((p) => readRtp(p));
      expect(new Set(packets.map((p) => p?.ssrc)).size).toBe(1);
      for (let i = 1; i < packets.length; i++) {
        expect(packets[i]?.sequence).toBe(((packets[i - 1]?.sequence ?? 0) + 1) & 0xffff);
        expect(packets[i]?.timestamp).toBe(((packets[i - 1]?.timestamp ?? 0) + 160) >>> 0);
      }
    }
    expect(readRtp(members[1]?.sent[0] as Buffer)?.payloadType).toBe(8);
  });

  it('leaves a muted member out of the sum while it still hears the others; unmuted it is heard again', () => {
    const members = [member(1, 'PCMU'), member(2, 'PCMU'), member(3, 'PCMU')];
    const room = new ConferenceRoom(2, emit);
    room.join(members[0]?.media as MediaSession, false);
    room.join(members[1]?.media as MediaSession, false);
    room.join(members[2]?.media as MediaSession, true);
    talk(room, members, [1000, 2000, 4000]);
    near(members[0]?.heard(), 2000);
    near(members[1]?.heard(), 1000);
    near(members[2]?.heard(), 3000);
    room.mute(3, false);
    talk(room, members, [1000, 2000, 4000], 1);
    near(members[0]?.heard(), 6000);
  });

  it("mixes the room's play into everyone's ear and a member's own play (wait music) into its ear alone", () => {
    events.length = 0;
    const members = [member(1, 'PCMU'), member(2, 'PCMA')];
    const room = new ConferenceRoom(3, emit);
    for (const m of members) room.join(m.media, false);
    room.play(7, new Int16Array(320).fill(500), 1);
    members[0]?.media.play(8, new Int16Array(160).fill(3000), 1);
    tick(room, members);
    near(members[0]?.heard(), 3500);
    near(members[1]?.heard(), 500);
    tick(room, members);
    near(members[0]?.heard(), 500);
    expect(events).toContainEqual({ type: 'played', id: 1, play: 8, stopped: false });
    tick(room, members);
    near(members[1]?.heard(), 0);
    expect(events).toContainEqual({ type: 'room-played', room: 3, play: 7, stopped: false });
    room.play(9, new Int16Array(160).fill(500), 0);
    room.close();
    expect(events).toContainEqual({ type: 'room-played', room: 3, play: 9, stopped: true });
  });

  it('gives a member that leaves (or whose call closes) back its own media, and mixes the rest without it', () => {
    const members = [member(1, 'PCMU'), member(2, 'PCMU'), member(3, 'PCMU')];
    const room = new ConferenceRoom(4, emit);
    for (const m of members) room.join(m.media, false);
    talk(room, members, [1000, 2000, 4000]);
    room.leave(1);
    members[2]?.media.close();
    expect(room.size).toBe(1);
    expect(members[0]?.media.seat).toBeUndefined();
    members[0]?.media.play(5, new Int16Array(160).fill(700), 1);
    talk(room, members.slice(0, 2), [1000, 2000], 1);
    near(members[0]?.heard(), 700);
    // Member 2 is alone: it hears silence, not itself.
    near(members[1]?.heard(), 0);
  });
});
