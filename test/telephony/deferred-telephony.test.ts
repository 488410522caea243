import { describe, expect, it } from 'vitest';
import type { DialEvents, DialRequest, Telephony } from '../../src/engine/ports/telephony.js';
import { deferredTelephony } from '../../src/telephony/deferred-telephony.js';

/** A telephony that logs which one was asked. */
function named(name: string, log: string[]): Telephony {
  return {
    dial: () => {
      log.push(`${name} dial`);
      return { cancel: () => {} };
    },
    connect: () => {
      log.push(`${name} connect`);
      return { disconnect: (done) => done(undefined) };
    },
    room: () => {
      log.push(`${name} room`);
      return { join() {}, leave() {}, mute() {}, play: () => ({ stop() {} }), close() {} };
    },
  };
}

const request = { to: 'sip:a@127.0.0.1' } as DialRequest;
const events = {} as DialEvents;

describe('deferredTelephony', () => {
  it('routes to the simulated parties until a telephony is chosen, then to the chosen one', () => {
    const log: string[] = [];
    const late = deferredTelephony();
    const telephony = late.factory(named('simulated', log));
    telephony.dial(request, events);
    late.use((simulated) => {
      log.push('chosen with the simulated one');
      simulated.room('CF1', 'r');
      return named('sip', log);
    });
    telephony.dial(request, events);
    telephony.connect({} as never, {} as never, { record: false });
    telephony.room('CF2', 'r');
    expect(log).toEqual([
      'simulated dial',
      'chosen with the simulated one',
      'simulated room',
      'sip dial',
      'sip connect',
      'sip room',
    ]);
  });

  it('refuses a choice made before the engine took its factory', () => {
    expect(() => deferredTelephony().use(() => named('sip', []))).toThrow(/create the engine/);
  });
});
