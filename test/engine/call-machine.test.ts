import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CallHooks, CallMachine, type ScriptStart } from '../../src/engine/call-machine.js';
import type { CallStatus } from '../../src/engine/records.js';

/** Hooks that log what runs, with an optional action per hook (sending more events). */
function hooks(log: string[], on: Partial<Record<string, () => void>> = {}): CallHooks {
  const hook = (name: string) => () => {
    log.push(name);
    on[name]?.();
  };
  return {
    enteredDialing: hook('dialing'),
    enteredRinging: hook('ringing'),
    enteredInProgress: hook('inProgress'),
    enteredEnded: (status: CallStatus) => {
      log.push(`ended:${status}`);
      on.ended?.();
    },
    startScript: (start: ScriptStart) => {
      log.push(`run:${start.url}`);
      on.run?.();
    },
  };
}

const start = (url: string): ScriptStart => ({ url, method: 'POST', kind: 'rcml' });

describe('CallMachine', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs an event sent by a hook after the one being processed, in order', () => {
    const log: string[] = [];
    let m: CallMachine;
    const call = hooks(log, {
      ringing: () => {
        m.send({ type: 'ANSWER' });
        log.push('sent answer');
      },
      inProgress: () => {
        m.send({ type: 'RUN', start: start('/a') });
        m.send({ type: 'END', status: 'completed' });
        log.push('sent run, end');
      },
    });
    m = new CallMachine(call, 'ringing');
    m.start();
    expect(log).toEqual([
      'ringing',
      'sent answer',
      'inProgress',
      'sent run, end',
      'run:/a',
      'ended:completed',
    ]);
  });

  it('queues events sent before the start, and drops those sent once ended', () => {
    const log: string[] = [];
    let m: CallMachine;
    m = new CallMachine(
      hooks(log, { ended: () => m.send({ type: 'RUN', start: start('/late') }) }),
      'queued',
    );
    m.send({ type: 'RING' });
    expect(log).toEqual([]);
    m.start();
    expect(log).toEqual(['dialing']);
    m.send({ type: 'RUN', start: start('/early') });
    m.send({ type: 'ANSWER' });
    m.send({ type: 'END', status: 'busy' });
    m.send({ type: 'ANSWER' });
    expect(log).toEqual(['dialing', 'inProgress', 'ended:busy']);
  });

  it('stops on an error escaping a hook and rethrows it outside the run', () => {
    vi.useFakeTimers();
    const log: string[] = [];
    const boom = new Error('boom');
    const m = new CallMachine(
      hooks(log, {
        inProgress: () => {
          throw boom;
        },
      }),
      'ringing',
    );
    m.start();
    expect(() => m.send({ type: 'ANSWER' })).not.toThrow();
    m.send({ type: 'END', status: 'completed' });
    expect(log).toEqual(['ringing', 'inProgress']);
    expect(() => vi.runAllTimers()).toThrow(boom);
  });
});
