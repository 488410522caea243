import sdpTransform from 'sdp-transform';
import { describe, expect, it } from 'vitest';
import { buildAnswer, negotiate, packetTimeOf } from '../../../src/telephony/sip/sdp.js';

const offer = (payloads: string, extra: string[] = [], address = '127.0.0.1'): string =>
  [
    'v=0',
    'o=- 1 1 IN IP4 127.0.0.1',
    's=-',
    `c=IN IP4 ${address}`,
    't=0 0',
    'm=video 5000 RTP/AVP 96',
    `m=audio 6000 RTP/AVP ${payloads}`,
    ...extra,
    '',
  ].join('\r\n');

describe('SDP offer/answer', () => {
  it("chooses the caller's first G.711 codec and keeps telephone-event", () => {
    const n = negotiate(offer('18 8 0 101', ['a=rtpmap:18 G729/8000', 'a=rtpmap:101 telephone-event/8000']));
    expect(n).toMatchObject({ codec: 'PCMA', payloadType: 8, dtmfPayloadType: 101, streamIndex: 1 });
    expect(n).toMatchObject({ remote: { address: '127.0.0.1', port: 6000 }, direction: 'sendrecv' });
  });

  it('keeps a preferred codec when it is offered at all, else takes the first G.711 one', () => {
    expect(negotiate(offer('8 0 101'), 'PCMU')).toMatchObject({ codec: 'PCMU', payloadType: 0 });
    expect(negotiate(offer('8 101'), 'PCMU')).toMatchObject({ codec: 'PCMA', payloadType: 8 });
  });

  it("sends packets of the caller's ptime (20, 30 or 40 ms within its maxptime), 20 otherwise", () => {
    expect(packetTimeOf(undefined, undefined)).toBe(20);
    expect(packetTimeOf(40, undefined)).toBe(40);
    expect(packetTimeOf(30, undefined)).toBe(30);
    expect(packetTimeOf(60, undefined)).toBe(40);
    expect(packetTimeOf(40, 30)).toBe(30);
    expect(packetTimeOf(10, undefined)).toBe(20);
    const n = negotiate(offer('0').replace('m=audio', 'a=ptime:40\r\nm=audio').concat('a=ptime:40\r\n'));
    expect(n).toMatchObject({ ptime: 40 });
    if ('status' in n) return;
    const answer = buildAnswer(offer('0'), n, { sessionId: 1, version: 1, address: '127.0.0.1', port: 4000 });
    expect(answer).toMatch(/^a=ptime:40/m);
  });

  it('answers 488 without G.711 and 400 for no SDP at all', () => {
    expect(negotiate(offer('18 3'))).toMatchObject({ status: 488 });
    expect(negotiate('garbage')).toMatchObject({ status: 400 });
  });

  it('mirrors the far end direction, and takes c=0.0.0.0 for hold', () => {
    expect(negotiate(offer('0', ['a=sendonly']))).toMatchObject({ direction: 'recvonly' });
    expect(negotiate(offer('0', ['a=inactive']))).toMatchObject({ direction: 'inactive' });
    expect(negotiate(offer('0', [], '0.0.0.0'))).toMatchObject({ remote: null, direction: 'recvonly' });
  });

  it('answers every m= line, refusing the others with port 0, ptime 20', () => {
    const text = offer('0 101', ['a=rtpmap:101 telephone-event/8000']);
    const n = negotiate(text);
    if ('status' in n) throw new Error('refused');
    const answer = sdpTransform.parse(
      buildAnswer(text, n, { sessionId: 7, version: 2, address: '127.0.0.1', port: 20000 }),
    );
    expect(answer.media.map((m) => m.port)).toEqual([0, 20000]);
    expect(answer.media[1].payloads).toBe('0 101');
    expect(answer.media[1].ptime).toBe(20);
    expect(answer.origin.sessionVersion).toBe(2);
  });
});
