import type { MediaHandle } from './ports/call-line.js';
import type {
  ConferenceMixer,
  DialAttempt,
  DialEvents,
  DialRequest,
  LineBridge,
  RecordedAudio,
  Telephony,
} from './ports/telephony.js';
import type { CallRecord } from './records.js';
import { SimulatedLine, type SimulatedMedia } from './simulated-line.js';
import type { PartyBehaviour } from './types.js';
import { writeWav } from './wav.js';

/** What the simulated telephony needs of the engine: its clock, media constants and parties. */
export interface SimulatedParties extends SimulatedMedia {
  /** The behaviour of the party at `address` called by `call` (`Runtime.party`). */
  party(address: string, call: Readonly<CallRecord>): PartyBehaviour;
}

const NO_MEDIA: MediaHandle = { stop() {} };

/** A room of simulated parties: nothing to mix, beeps take no one's time. */
const SILENT_ROOM: ConferenceMixer = {
  join() {},
  leave() {},
  mute() {},
  play: () => NO_MEDIA,
  close() {},
};

/**
 * The default `Telephony`: the simulated parties. A dialed party rings after a turn of the
 * clock, then answers, is busy or fails after its `answerAfter` seconds (or rings until the
 * engine's timeout with `no-answer`); a bridge records a WAV of its length.
 */
export class SimulatedTelephony implements Telephony {
  constructor(private readonly parties: SimulatedParties) {}

  dial(request: DialRequest, events: DialEvents): DialAttempt {
    const parties = this.parties;
    const clock = parties.clock;
    const party = parties.party(request.to, request.call);
    let canceled = false;
    // Timers are left to fire after a cancel (they then do nothing), as they always were: a
    // virtual run's idle time stays where it was.
    clock.setTimeout(() => {
      if (canceled) return;
      if (party.outcome === 'fail') {
        events.failed('failed');
        return;
      }
      events.ringing();
      if (canceled || party.outcome === 'no-answer') return;
      clock.setTimeout(
        () => {
          if (canceled) return;
          if (party.outcome === 'busy') events.failed('busy');
          else events.answered(new SimulatedLine(parties, party));
        },
        (party.answerAfter ?? 0) * 1000,
      );
    }, 0);
    return {
      cancel() {
        canceled = true;
      },
    };
  }

  connect(_a: unknown, _b: unknown, options: { record: boolean }): LineBridge {
    const clock = this.parties.clock;
    const start = clock.now();
    return {
      disconnect(done: (recording: RecordedAudio | undefined) => void): void {
        if (!options.record) {
          done(undefined);
          return;
        }
        const duration = Math.round(clock.now() - start) / 1000;
        done({ wav: writeWav(duration), duration });
      },
    };
  }

  room(): ConferenceMixer {
    return SILENT_ROOM;
  }
}
