import { DirectionOffers } from './direction-offers.js';
import type { MediaChannel, MediaHost, Recording } from './media/host.js';
import type { MediaPath } from './media/protocol.js';
import type { FarEndEnd, MediaCall } from './media-call.js';
import { buildAnswer, type Direction, type Negotiated, negotiate } from './sip/sdp.js';
import type { ServerCall } from './sip/server-call.js';

export type { FarEndEnd } from './media-call.js';

function pathOf(negotiated: Negotiated): MediaPath {
  const d: Direction = negotiated.direction;
  return {
    remote: negotiated.remote,
    send: d === 'sendrecv' || d === 'sendonly',
    receive: d === 'sendrecv' || d === 'recvonly',
  };
}

/**
 * An inbound SIP call with its media: rings, answers with SDP (media opened on a port of the
 * range), plays and records through the media worker, follows the caller's re-offers (hold)
 * and hangs up. The engine's call line is built over this; it knows no RCML.
 */
export class SipCall implements MediaCall {
  private channel: MediaChannel | undefined;
  private opening: Promise<MediaChannel> | undefined;
  private negotiated: Negotiated;
  private readonly sessionId = Math.floor(Math.random() * 1e9);
  private version = 1;
  private offer: string;
  private finished = false;
  private localDirection: Direction = 'sendrecv';
  private muted = false;
  /** Our own offers of a direction (Hold, Resume) as re-INVITEs to the caller. */
  private readonly offers = new DirectionOffers(
    (direction, done) => {
      const channel = this.channel;
      if (!channel || this.finished) return false;
      const sdp = buildAnswer(
        this.offer,
        { ...this.negotiated, direction },
        {
          sessionId: this.sessionId,
          version: this.version + 1,
          address: this.publicAddress,
          port: channel.port,
        },
      );
      if (!this.server.sendOffer(sdp, done)) return false;
      this.version += 1;
      return true;
    },
    () => this.finished,
  );
  /** A key pressed (RFC 4733 or SIP INFO). */
  onDigit: ((key: string) => void) | undefined;
  /** The caller canceled or hung up (or the answer was never acknowledged). */
  onEnd: ((how: FarEndEnd) => void) | undefined;
  /** The call is over, whoever ended it. */
  onFinished: (() => void) | undefined;
  /** The caller's media direction changed (hold: true while the far end sends no audio to us). */
  onHold: ((held: boolean) => void) | undefined;

  constructor(
    readonly server: ServerCall,
    private readonly media: MediaHost,
    private readonly publicAddress: string,
  ) {
    this.negotiated = server.negotiated;
    this.offer = server.invite.body;
    server.events = {
      canceled: () => this.farEnd('canceled'),
      ended: () => this.farEnd('hangup'),
      reoffer: (sdp) => this.reoffer(sdp),
      offer: () => {
        if (!this.channel) return null;
        this.version += 1;
        return this.answerSdp(this.channel.port);
      },
      digit: (key) => this.onDigit?.(key),
      confirmed: () => this.offers.retry(),
    };
  }

  get answered(): boolean {
    return this.server.answered;
  }

  get ended(): boolean {
    return this.finished;
  }

  mediaChannel(): MediaChannel | undefined {
    return this.finished ? undefined : this.channel;
  }

  /** 180 Ringing. */
  ring(): void {
    this.server.ringing();
  }

  /** Opens the media and answers 200 OK with our SDP. */
  async answer(): Promise<void> {
    if (this.finished || this.server.answered) return;
    const channel = await this.open();
    if (this.finished) return;
    this.server.answer(this.answerSdp(channel.port));
  }

  /** Plays PCM; true when stopped early. Before the answer or after the end, nothing plays. */
  async play(pcm: Int16Array, loop: number, signal?: AbortSignal, key?: string): Promise<boolean> {
    const channel = this.channel;
    if (!channel || this.finished) return true;
    return channel.play(pcm, loop, signal, key);
  }

  /** Records the caller (see `MediaChannel.record`). */
  record(maxMs: number, silenceMs: number): Recording | undefined {
    if (!this.channel || this.finished) return undefined;
    return this.channel.record(maxMs, silenceMs);
  }

  /** Our side's direction (Hold: `sendonly`), applied to the media with the far end's. */
  setLocalDirection(direction: Direction): void {
    this.localDirection = direction;
    this.channel?.update(this.path());
    this.offers.want(direction);
  }

  /** Mutes our side: the far end hears nothing, no new offer. */
  setMuted(muted: boolean): void {
    this.muted = muted;
    this.channel?.update(this.path());
  }

  /** The media path: the far end's direction, then ours and the mute on top. */
  private path(): MediaPath {
    const far = pathOf(this.negotiated);
    const local = this.localDirection;
    return {
      remote: far.remote,
      send: far.send && !this.muted && (local === 'sendrecv' || local === 'sendonly'),
      receive: far.receive && (local === 'sendrecv' || local === 'recvonly'),
    };
  }

  /** Refuses the ringing call (404, 486, 603...). */
  reject(status: number): void {
    if (this.finished) return;
    this.finished = true;
    this.server.reject(status);
    this.onFinished?.();
    this.channel?.close();
  }

  /** Our hang-up: BYE when answered, a refusal (480) while ringing. */
  hangup(): void {
    if (this.finished) return;
    this.finished = true;
    this.server.hangup();
    this.onFinished?.();
    this.channel?.close();
  }

  private open(): Promise<MediaChannel> {
    this.opening ??= this.media
      .open({
        codec: this.negotiated.codec,
        payloadType: this.negotiated.payloadType,
        dtmfPayloadType: this.negotiated.dtmfPayloadType,
        ...this.path(),
      })
      .then((channel) => {
        this.channel = channel;
        channel.onDigit = (key) => this.onDigit?.(key);
        if (this.finished) channel.close();
        return channel;
      });
    return this.opening;
  }

  private answerSdp(port: number): string {
    return buildAnswer(this.offer, this.negotiated, {
      sessionId: this.sessionId,
      version: this.version,
      address: this.publicAddress,
      port,
    });
  }

  /**
   * A re-INVITE or UPDATE with SDP (hold, resume, a new address): the codec stays the one first
   * chosen (an offer without it gets 488); the address and direction follow the new offer.
   */
  private reoffer(sdp: string): string | null {
    const next = negotiate(sdp);
    if ('status' in next || !this.channel || next.codec !== this.negotiated.codec) return null;
    const wasHeld = this.held();
    this.negotiated = { ...next, payloadType: this.negotiated.payloadType };
    this.offer = sdp;
    this.version += 1;
    this.channel.update(this.path());
    const held = this.held();
    if (held !== wasHeld) this.onHold?.(held);
    return this.answerSdp(this.channel.port);
  }

  /** The far end asked for no audio from us (sendonly/inactive or c=0.0.0.0). */
  private held(): boolean {
    const path = pathOf(this.negotiated);
    return !path.send || path.remote === null;
  }

  private farEnd(how: FarEndEnd): void {
    if (this.finished) return;
    this.finished = true;
    this.channel?.close();
    this.onFinished?.();
    this.onEnd?.(how);
  }
}
