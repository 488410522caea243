import { describe, expect, it } from 'vitest';
import { WarnSampler } from '../../../src/telephony/sip/warn-sampler.js';

describe('WarnSampler', () => {
  it('writes a kind of warning at most 20 times in 10 s, then counts the rest once', () => {
    let now = 0;
    const lines: string[] = [];
    const sampler = new WarnSampler(
      () => now,
      (message) => lines.push(message),
    );
    for (let i = 0; i < 1000; i++) sampler.warn('unreadable', `junk ${i}`, {});
    sampler.warn('refused', 'refused 1', {});
    expect(lines).toHaveLength(21);
    now = 10_000;
    sampler.warn('unreadable', 'junk again', {});
    expect(lines.slice(21)).toEqual(["980 more 'unreadable' warnings left out", 'junk again']);
  });
});
