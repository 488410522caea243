import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/engine/clock/virtual-clock.js';
import { createEngine } from '../../src/engine/index.js';
import type { EngineEvent } from '../../src/engine/types.js';

describe('VirtualClock', () => {
  it('fires timers deadline by deadline, ties in creation order', async () => {
    const clock = new VirtualClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 20);
    const cancelled = clock.setTimeout(() => fired.push('never'), 15);
    clock.clearTimeout(cancelled);
    await clock.runUntilIdle();
    expect(fired).toEqual(['a@10', 'b@20', 'c@20']);
  });

  it('fires chained timers created while running, and stops at the target time', async () => {
    const clock = new VirtualClock(0);
    const fired: number[] = [];
    const tick = (): void => {
      fired.push(clock.now());
      clock.setTimeout(tick, 1000);
    };
    clock.setTimeout(tick, 1000);
    await clock.advance(3.5);
    expect(fired).toEqual([1000, 2000, 3000]);
    expect(clock.now()).toBe(3500);
  });

  it('does not advance while tracked I/O is in flight', async () => {
    const clock = new VirtualClock(0);
    const seen: number[] = [];
    let release!: () => void;
    clock.track(new Promise<void>((r) => (release = r))).then(() => {
      seen.push(clock.now());
      clock.setTimeout(() => seen.push(clock.now()), 5);
    });
    clock.setTimeout(() => seen.push(clock.now()), 10);
    setTimeout(() => release(), 5);
    await clock.runUntilIdle();
    expect(seen).toEqual([0, 5, 10]);
  });

  it('gives up after the idle limit on endless timers', async () => {
    const clock = new VirtualClock(0);
    const loop = (): void => void clock.setTimeout(loop, 1000);
    loop();
    expect(await clock.runUntilIdle(60)).toBe(false);
    expect(clock.now()).toBe(60_000);
  });

  it('property: any set of timers fires sorted by (deadline, creation)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(50), { maxLength: 60 }), async (delays) => {
        const clock = new VirtualClock(0);
        const fired: Array<[number, number]> = [];
        delays.forEach((d, i) => {
          clock.setTimeout(() => fired.push([d, i]), d);
        });
        await clock.runUntilIdle();
        const expected = delays
          .map((d, i) => [d, i] as [number, number])
          .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        expect(fired).toEqual(expected);
      }),
      { numRuns: process.env.RCML_DEEP ? 500 : 50 },
    );
  });
});

describe('engine clocks and options', () => {
  it('a real-clock engine runs calls on wall-clock timers and refuses virtual time controls', async () => {
    const events: EngineEvent[] = [];
    let done: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      done = resolve;
    });
    const engine = createEngine({
      clock: 'real',
      accountSid: `AC${'1'.repeat(32)}`,
      instanceId: 'node-7',
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'call-status' && e.status === 'completed') done();
      },
    });
    engine.registerHandler('http://app.test/x', () => ({
      status: 200,
      contentType: 'text/xml',
      body: '<Response><Hangup/></Response>',
    }));
    const before = Date.now();
    const call = engine.createCall({ From: '+1', To: '+2', Url: 'http://app.test/x' });
    expect(() => engine.advance(1)).toThrow(expect.objectContaining({ code: 'clock-not-virtual' }));
    await ended;
    await engine.close();
    const record = engine.getCall(call.sid)!;
    expect(record).toMatchObject({
      status: 'completed',
      accountSid: `AC${'1'.repeat(32)}`,
      instanceId: 'node-7',
    });
    expect(record.dateCreated).toBeGreaterThanOrEqual(before);
    const request = events.find((e) => e.type === 'request');
    expect(request?.type === 'request' && request.params).toMatchObject({
      AccountSid: `AC${'1'.repeat(32)}`,
      InstanceId: 'node-7',
    });
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['call-status', 'request', 'response', 'verb']),
    );
  });
});
