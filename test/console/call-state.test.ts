import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type CallFilter,
  currentVerb,
  durationText,
  EngineTime,
  type FilteredCall,
  matches,
} from '../../src/console/app/call-state.js';

const T = Date.UTC(2026, 0, 5, 9);
const call = (over: Partial<FilteredCall> = {}): FilteredCall => ({
  sid: 'CAabc123',
  direction: 'inbound',
  from: '+15551111',
  to: '+15550100',
  status: 'in-progress',
  dateCreated: T,
  startTime: T + 2000,
  ...over,
});
const none: CallFilter = { status: '', direction: '', number: '', date: '', sid: '' };

afterEach(() => {
  vi.useRealTimers();
});

describe('the calls list filters', () => {
  it('match by status (or live/ended), direction, number, UTC date and part of the sid', () => {
    expect(matches(call(), none)).toBe(true);
    expect(matches(call(), { ...none, status: 'live' })).toBe(true);
    expect(matches(call(), { ...none, status: 'ended' })).toBe(false);
    expect(matches(call({ status: 'busy' }), { ...none, status: 'ended' })).toBe(true);
    expect(matches(call(), { ...none, status: 'ringing' })).toBe(false);
    expect(matches(call(), { ...none, direction: 'outbound-api' })).toBe(false);
    expect(matches(call(), { ...none, number: '555 0100' })).toBe(true);
    expect(matches(call(), { ...none, number: '+1999' })).toBe(false);
    expect(matches(call(), { ...none, date: '2026-01-05' })).toBe(true);
    expect(matches(call(), { ...none, date: '2026-01-06' })).toBe(false);
    expect(matches(call(), { ...none, sid: ' abc1 ' })).toBe(true);
    expect(matches(call(), { ...none, sid: 'CAdef' })).toBe(false);
  });
});

describe('what a live call is doing', () => {
  it('keeps the newest verb of each call, nested ones with their parent', () => {
    const verbs = new Map<string, string>();
    currentVerb(verbs, { type: 'verb', callSid: 'CA1', verb: 'Say' });
    currentVerb(verbs, { type: 'verb', callSid: 'CA1', verb: 'Play', parent: 'Gather' });
    currentVerb(verbs, { type: 'request', callSid: 'CA1' });
    expect(verbs.get('CA1')).toBe('Gather>Play');
  });

  it('shows the running time from the answer, or the duration once ended', () => {
    expect(durationText(call(), T + 14_500)).toBe('12 s');
    expect(durationText(call({ startTime: undefined, status: 'ringing' }), T + 3000)).toBe(
      '3 s (not answered)',
    );
    expect(durationText(call({ status: 'completed', duration: 40 }), T)).toBe('40 s');
  });

  it("moves the engine's time with the browser's clock only while they agree", () => {
    vi.useFakeTimers({ now: T });
    const real = new EngineTime();
    real.saw(T - 1000);
    vi.advanceTimersByTime(3000);
    expect(real.now()).toBe(T + 2000);
    const virtual = new EngineTime();
    virtual.saw(T + 3_600_000); // an hour advanced with POST /sim/Advance
    vi.advanceTimersByTime(3000);
    expect(virtual.now()).toBe(T + 3_600_000);
  });
});
