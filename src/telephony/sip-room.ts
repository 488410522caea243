import type { CallLine, MediaHandle, MediaSource, PlayOutcome } from '../engine/ports/call-line.js';
import type { ConferenceMixer } from '../engine/ports/telephony.js';
import { sourcePcm } from './audio/source-pcm.js';
import type { MediaChannel, MediaHost } from './media/host.js';
import type { MediaRoom } from './media/room-channel.js';
import { SipCallLine } from './sip-line.js';
import type { TextToSpeech } from './tts/port.js';

/** A member as the engine joined it: muted or not, and its channel once its media is open. */
interface Seat {
  muted: boolean;
  channel?: MediaChannel;
}

/**
 * A conference room's audio over SIP: the SIP lines of the engine's members are mixed in the
 * media worker (`media/room.ts`); each hears the others, the room's plays and its own call's
 * play (wait music), never itself. A line that is not SIP (a simulated party's) is left out of
 * the audio: it neither hears nor is heard. The worker's room is opened on the first SIP member
 * or play.
 */
export class SipConferenceMixer implements ConferenceMixer {
  private room: MediaRoom | undefined;
  private readonly seats = new Map<CallLine, Seat>();
  private isClosed = false;

  constructor(
    private readonly media: MediaHost,
    private readonly tts: TextToSpeech,
    private readonly warn: (message: string, detail: Record<string, unknown>) => void,
  ) {}

  private mediaRoom(): MediaRoom {
    this.room ??= this.media.openRoom();
    return this.room;
  }

  join(line: CallLine, options: { muted: boolean }): void {
    if (this.isClosed || !(line instanceof SipCallLine) || this.seats.has(line)) return;
    const seat: Seat = { muted: options.muted };
    this.seats.set(line, seat);
    // A call that sits as it is answered has its media a moment later.
    void line.whenMedia().then((channel) => {
      if (!channel || this.isClosed || this.seats.get(line) !== seat) return;
      seat.channel = channel;
      this.mediaRoom().join(channel, seat.muted);
    });
  }

  leave(line: CallLine): void {
    const seat = this.seats.get(line);
    if (!seat) return;
    this.seats.delete(line);
    if (seat.channel) this.room?.leave(seat.channel);
  }

  mute(line: CallLine, muted: boolean): void {
    const seat = this.seats.get(line);
    if (!seat) return;
    seat.muted = muted;
    if (seat.channel) this.room?.mute(seat.channel, muted);
  }

  play(source: MediaSource, done: (outcome: PlayOutcome) => void): MediaHandle {
    const abort = new AbortController();
    sourcePcm(source, this.tts, 'conference play')
      .then(async (pcm) => {
        if (abort.signal.aborted || this.isClosed) return;
        const stopped = await this.mediaRoom().play(pcm, 1, abort.signal);
        if (!stopped && !abort.signal.aborted) done('done');
      })
      .catch((err) => {
        this.warn('conference play failed', { err: err instanceof Error ? err.message : String(err) });
        if (!abort.signal.aborted) done('failed');
      });
    return { stop: () => abort.abort() };
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.seats.clear();
    this.room?.close();
  }
}
