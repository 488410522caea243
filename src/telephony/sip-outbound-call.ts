import { DirectionOffers } from './direction-offers.js';
import type { MediaChannel, Recording } from './media/host.js';
import type { MediaPath } from './media/protocol.js';
import type { FarEndEnd, MediaCall } from './media-call.js';
import type { ClientCall } from './sip/client-call.js';
import { type Direction, type Negotiated, negotiate } from './sip/sdp.js';

function farPath(negotiated: Negotiated): MediaPath {
  const d = negotiated.direction;
  return {
    remote: negotiated.remote,
    send: d === 'sendrecv' || d === 'sendonly',
    receive: d === 'sendrecv' || d === 'recvonly',
  };
}

/**
 * An outgoing SIP call its callee answered: the media channel opened for our offer, now
 * pointed at the callee's answer. It plays, records and hangs up (BYE) like an inbound call.
 */
export class OutboundSipCall implements MediaCall {
  onDigit: ((key: string) => void) | undefined;
  onEnd: ((how: FarEndEnd) => void) | undefined;
  onFinished: (() => void) | undefined;
  private finished = false;
  private localDirection: Direction = 'sendrecv';
  private muted = false;
  /** Our own offers of a direction (Hold, Resume) as re-INVITEs to the callee. */
  private readonly offers = new DirectionOffers(
    (direction, done) =>
      !this.finished &&
      this.client.sendOffer(this.answerTo(this.remoteSdp, { ...this.negotiated, direction }), done),
    () => this.finished,
  );

  constructor(
    readonly client: ClientCall,
    readonly channel: MediaChannel,
    private negotiated: Negotiated,
    /** The callee's SDP (its answer, then its latest offer): the template of ours. */
    private remoteSdp: string,
    /** Our SDP (same port and codec) in answer to `offer`, with `negotiated`'s direction. */
    private readonly answerTo: (offer: string, negotiated: Negotiated) => string,
  ) {
    channel.onDigit = (key) => this.onDigit?.(key);
    channel.update(this.path(), {
      codec: negotiated.codec,
      payloadType: negotiated.payloadType,
      dtmfPayloadType: negotiated.dtmfPayloadType,
    });
  }

  get answered(): boolean {
    return true;
  }

  get ended(): boolean {
    return this.finished;
  }

  mediaChannel(): MediaChannel | undefined {
    return this.finished ? undefined : this.channel;
  }

  /** Answered by the callee already. */
  answer(): Promise<void> {
    return Promise.resolve();
  }

  play(pcm: Int16Array, loop: number, signal?: AbortSignal, key?: string): Promise<boolean> {
    if (this.finished) return Promise.resolve(true);
    return this.channel.play(pcm, loop, signal, key);
  }

  record(maxMs: number, silenceMs: number): Recording | undefined {
    if (this.finished) return undefined;
    return this.channel.record(maxMs, silenceMs);
  }

  setLocalDirection(direction: Direction): void {
    this.localDirection = direction;
    this.channel.update(this.path());
    this.offers.want(direction);
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.channel.update(this.path());
  }

  reject(_status: number): void {
    this.hangup();
  }

  hangup(): void {
    if (this.finished) return;
    this.finished = true;
    this.client.hangup();
    this.channel.close();
    this.onFinished?.();
  }

  /** The callee hung up (BYE). */
  farEnd(): void {
    if (this.finished) return;
    this.finished = true;
    this.channel.close();
    this.onFinished?.();
    this.onEnd?.('hangup');
  }

  /** A re-offer of the callee (hold, resume): same codec, new direction or address. */
  reoffer(sdp: string): string | null {
    const next = negotiate(sdp);
    if ('status' in next || next.codec !== this.negotiated.codec || this.finished) return null;
    this.negotiated = { ...next, payloadType: this.negotiated.payloadType };
    this.remoteSdp = sdp;
    this.channel.update(this.path());
    return this.answerTo(sdp, this.negotiated);
  }

  private path(): MediaPath {
    const far = farPath(this.negotiated);
    const local = this.localDirection;
    return {
      remote: far.remote,
      send: far.send && !this.muted && (local === 'sendrecv' || local === 'sendonly'),
      receive: far.receive && (local === 'sendrecv' || local === 'recvonly'),
    };
  }
}
