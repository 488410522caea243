import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DtmfReceiver, REPLAY_GAP_MS } from '../../../src/telephony/media/dtmf.js';

const event = (key: number, end: boolean, duration: number) =>
  Uint8Array.of(key, (end ? 0x80 : 0) | 10, duration >> 8, duration & 0xff);

describe('RFC 4733 digits', () => {
  it('counts a key once per timestamp, end packets and repeats included', () => {
    const rx = new DtmfReceiver();
    const keys = [
      rx.receive(1, 100, event(1, false, 160), 0),
      rx.receive(1, 100, event(1, false, 320), 20),
      rx.receive(1, 100, event(1, true, 480), 40),
      rx.receive(1, 100, event(1, true, 480), 60),
      rx.receive(1, 900, event(11, false, 160), 200),
      rx.receive(1, 900, event(11, true, 320), 220),
    ];
    expect(keys.filter(Boolean)).toEqual(['1', '#']);
  });

  it('counts a key whose first packets were lost, from its end packet', () => {
    const rx = new DtmfReceiver();
    expect(rx.receive(1, 100, event(5, true, 800), 0)).toBe('5');
    expect(rx.receive(1, 100, event(5, true, 800), 20)).toBeUndefined();
  });

  it('counts the same recording played again (same timestamp, duration starting over, later)', () => {
    const rx = new DtmfReceiver();
    expect(rx.receive(1, 100, event(2, false, 160), 0)).toBe('2');
    expect(rx.receive(1, 100, event(2, true, 800), 100)).toBeUndefined();
    expect(rx.receive(1, 100, event(2, false, 160), 100 + REPLAY_GAP_MS)).toBe('2');
  });

  it('counts a packet reordered after its end packet, or after the next key began, as nothing new', () => {
    const rx = new DtmfReceiver();
    const heard = [
      rx.receive(1, 100, event(1, false, 160), 0),
      rx.receive(1, 100, event(1, true, 480), 40),
      rx.receive(1, 100, event(1, false, 320), 45),
      rx.receive(1, 900, event(2, false, 160), 200),
      rx.receive(1, 100, event(1, true, 480), 210),
      rx.receive(1, 900, event(2, true, 320), 240),
    ];
    expect(heard.filter(Boolean)).toEqual(['1', '2']);
  });

  it('hears each of keys 1234 once whatever the network does within its jitter (property)', () => {
    // Each key: 5 packets on one timestamp (durations growing, the last two ending it), keys 60 ms apart.
    const packets = [1, 2, 3, 4].flatMap((key, k) =>
      [160, 320, 480, 640, 640].map((duration, i) => ({
        key,
        timestamp: 1000 + k * 800,
        payload: event(key, i >= 3, duration),
        sent: k * 60 + i * 10,
      })),
    );
    fc.assert(
      fc.property(
        // Per packet: lost or not, copies (1-2), and a delay of 0-100 ms (jitter, reordering).
        fc.array(
          fc.record({ lost: fc.boolean(), copies: fc.integer({ min: 1, max: 2 }), delay: fc.nat(100) }),
          {
            minLength: packets.length,
            maxLength: packets.length,
          },
        ),
        (fate) => {
          const arrivals = packets
            .flatMap((p, i) =>
              fate[i].lost && p.payload[1] < 0x80
                ? []
                : Array(fate[i].copies).fill({ ...p, at: p.sent + fate[i].delay }),
            )
            .sort((a, b) => a.at - b.at);
          const rx = new DtmfReceiver();
          const keys = arrivals.map((p) => rx.receive(7, p.timestamp, p.payload, p.at)).filter(Boolean);
          // Each key that arrived at all counts once (two presses may trade places if the
          // network reorders them wholesale; none counts twice).
          const arrived = [...new Set(arrivals.map((p) => String(p.key)))].sort();
          expect([...keys].sort()).toEqual(arrived);
        },
      ),
    );
  });
});
