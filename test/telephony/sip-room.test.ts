/**
 * The conference mixer of the SIP telephony over a real media worker: a SIP line joined before
 * its media opens is mixed once they do, a simulated line is left out, a room play reaches the
 * member's RTP and reports its end.
 */
import alawmulaw from 'alawmulaw';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallLine } from '../../src/engine/ports/call-line.js';
import { type MediaChannel, MediaHost } from '../../src/telephony/media/host.js';
import type { MediaCall } from '../../src/telephony/media-call.js';
import { SipCallLine } from '../../src/telephony/sip-line.js';
import { SipConferenceMixer } from '../../src/telephony/sip-room.js';
import type { TextToSpeech } from '../../src/telephony/tts/port.js';
import { level, rtpSink } from './support.js';
import { goertzel } from './tones.js';

const tts: TextToSpeech = { synthesize: async () => new Int16Array(800) };

/** An answered SIP call whose media open when `open` is called (as an answer in flight). */
function sipLine(): { line: SipCallLine; open(channel: MediaChannel): void } {
  let channel: MediaChannel | undefined;
  let opened: () => void = () => {};
  const answering = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const call = {
    answered: true,
    ended: false,
    answer: () => answering,
    mediaChannel: () => channel,
  } as unknown as MediaCall;
  const line = new SipCallLine(call, tts);
  line.answer();
  return {
    line,
    open(c) {
      channel = c;
      opened();
    },
  };
}

describe('SIP conference mixer', () => {
  const host = new MediaHost({ ports: { min: 37100, max: 37199 } });
  afterAll(() => host.close());

  it('mixes a SIP member joined before its media opened, leaves a simulated line out, and plays to the room', async () => {
    const ear = await rtpSink();
    const member = sipLine();
    const warnings: string[] = [];
    const mixer = new SipConferenceMixer(host, tts, (message) => warnings.push(message));
    mixer.join({} as CallLine, { muted: false });
    mixer.join(member.line, { muted: false });
    const channel = await host.open({
      codec: 'PCMU',
      payloadType: 0,
      remote: { address: '127.0.0.1', port: ear.port },
      send: true,
      receive: true,
    });
    member.open(channel);
    await member.line.whenMedia();
    const outcome = await new Promise((done) => mixer.play({ kind: 'beep', seconds: 0.3 }, done));
    expect(outcome).toBe('done');
    mixer.leave(member.line);
    mixer.close();
    channel.close();
    ear.close();
    expect(warnings).toEqual([]);
    // The member heard the room's 1 kHz beep in its stream.
    const pcm = alawmulaw.mulaw.decode(new Uint8Array(ear.payloads()));
    expect(level(pcm)).toBeGreaterThan(500);
    expect(goertzel(pcm, 1000)).toBeGreaterThan(100 * goertzel(pcm, 440));
  });

  it('fails a room play whose audio cannot be had, and ends nothing else', async () => {
    const warnings: string[] = [];
    const mixer = new SipConferenceMixer(host, tts, (message) => warnings.push(message));
    const outcome = await new Promise((done) =>
      mixer.play({ kind: 'audio', url: 'http://app.test/missing.wav', seconds: 1 }, done),
    );
    expect(outcome).toBe('failed');
    expect(warnings).toEqual(['conference play failed']);
    mixer.close();
  });
});
