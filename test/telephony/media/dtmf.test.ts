import { describe, expect, it } from 'vitest';
import { DtmfReceiver } from '../../../src/telephony/media/dtmf.js';

const event = (key: number, end: boolean, duration: number) =>
  Uint8Array.of(key, (end ? 0x80 : 0) | 10, duration >> 8, duration & 0xff);

describe('RFC 4733 digits', () => {
  it('counts a key once per timestamp, end packets and repeats included', () => {
    const rx = new DtmfReceiver();
    const keys = [
      rx.receive(1, 100, event(1, false, 160)),
      rx.receive(1, 100, event(1, false, 320)),
      rx.receive(1, 100, event(1, true, 480)),
      rx.receive(1, 100, event(1, true, 480)),
      rx.receive(1, 900, event(11, false, 160)),
      rx.receive(1, 900, event(11, true, 320)),
    ];
    expect(keys.filter(Boolean)).toEqual(['1', '#']);
  });

  it('counts a key whose first packets were lost, from its end packet', () => {
    const rx = new DtmfReceiver();
    expect(rx.receive(1, 100, event(5, true, 800))).toBe('5');
    expect(rx.receive(1, 100, event(5, true, 800))).toBeUndefined();
  });

  it('counts the same recording played again (same timestamp, duration starting over)', () => {
    const rx = new DtmfReceiver();
    expect(rx.receive(1, 100, event(2, false, 160))).toBe('2');
    expect(rx.receive(1, 100, event(2, true, 800))).toBeUndefined();
    expect(rx.receive(1, 100, event(2, false, 160))).toBe('2');
  });
});
