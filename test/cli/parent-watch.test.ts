import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenOrphaned } from '../../src/cli/commands/parent-watch.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('whenOrphaned', () => {
  it('calls back once the parent pid changes, and only once', () => {
    vi.useFakeTimers();
    let parent = 100;
    const gone = vi.fn();
    whenOrphaned(gone, { intervalMs: 1000, parentPid: () => parent });
    vi.advanceTimersByTime(5000);
    expect(gone).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(5000);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('compares with the parent given, which may be gone before the watch starts', () => {
    vi.useFakeTimers();
    const gone = vi.fn();
    whenOrphaned(gone, { parent: 100, parentPid: () => 1 });
    vi.advanceTimersByTime(1000);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('stops watching when told', () => {
    vi.useFakeTimers();
    let parent = 100;
    const gone = vi.fn();
    const stop = whenOrphaned(gone, { parentPid: () => parent });
    stop();
    parent = 1;
    vi.advanceTimersByTime(5000);
    expect(gone).not.toHaveBeenCalled();
  });
});
