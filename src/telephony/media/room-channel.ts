import type { MediaCommand } from './protocol.js';

/** What a room needs of the media host: its port to the worker and its operation numbers. */
export interface RoomWire {
  send(command: MediaCommand): void;
  op(): number;
  forgetRoom(id: number): void;
}

/** A call's media channel, as a room knows it: its id in the worker. */
interface Channel {
  readonly id: number;
}

/**
 * A conference room in the media worker, seen from the main thread: calls' channels join,
 * leave and are muted; plays reach every member. Commands go in order on the worker's port, so
 * nothing here waits for the worker except a play's end.
 */
export class MediaRoom {
  private readonly plays = new Map<number, (stopped: boolean) => void>();
  private isClosed = false;

  constructor(
    private readonly host: RoomWire,
    readonly id: number,
  ) {
    host.send({ type: 'room-open', room: id });
  }

  /** The channel's call hears the room (and, unless `muted`, is heard) instead of its own media. */
  join(channel: Channel, muted: boolean): void {
    if (!this.isClosed) this.host.send({ type: 'room-join', room: this.id, id: channel.id, muted });
  }

  /** The call goes back to its own media. */
  leave(channel: Channel): void {
    if (!this.isClosed) this.host.send({ type: 'room-leave', room: this.id, id: channel.id });
  }

  mute(channel: Channel, muted: boolean): void {
    if (!this.isClosed) this.host.send({ type: 'room-mute', room: this.id, id: channel.id, muted });
  }

  /** Plays 8 kHz PCM to every member; resolves true when stopped early (by `signal` or the room closing). */
  play(pcm: Int16Array, loop: number, signal?: AbortSignal): Promise<boolean> {
    if (this.isClosed || signal?.aborted) return Promise.resolve(true);
    const play = this.host.op();
    return new Promise<boolean>((resolve) => {
      const onAbort = () => this.host.send({ type: 'room-stop', room: this.id, play });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.plays.set(play, (stopped) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(stopped);
      });
      this.host.send({ type: 'room-play', room: this.id, play, pcm, loop });
    });
  }

  /** Every member goes back to its own media; plays end. */
  close(): void {
    if (this.isClosed) return;
    this.host.send({ type: 'room-close', room: this.id });
    this.closed();
    this.host.forgetRoom(this.id);
  }

  /** @internal The room or the host closed: pending plays end stopped. */
  closed(): void {
    this.isClosed = true;
    for (const done of this.plays.values()) done(true);
    this.plays.clear();
  }

  /** @internal */
  onPlayed(play: number, stopped: boolean): void {
    this.plays.get(play)?.(stopped);
    this.plays.delete(play);
  }
}
