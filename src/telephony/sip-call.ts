import { DirectionOffers } from './direction-offers.js';
import type { MediaChannel, MediaHost, Recording } from './media/host.js';
import type { MediaPath } from './media/protocol.js';
import type { FarEndEnd, MediaCall } from './media-call.js';
import type { DialogUser } from './sip/dialog.js';
import { buildAnswer, type Direction, type Negotiated, negotiate } from './sip/sdp.js';
import { realSipTimers, type SipTimers } from './sip/timers.js';
import type { UacInvite } from './sip/uac-invite.js';
import type { UasInvite } from './sip/uas-invite.js';

export type { FarEndEnd } from './media-call.js';

/** How long a call may go without RTP from its far end before it is ended (RTP timeouts). */
export interface RtpTimeouts {
  /** While the far end should be sending (`sendrecv`, `sendonly`), seconds; 0 never. Default 60. */
  activeSeconds: number;
  /** While it holds us (`recvonly`, `inactive`, `c=0.0.0.0`) and sends nothing, seconds; 0 never. Default 3600. */
  heldSeconds: number;
}

export const RTP_TIMEOUTS: RtpTimeouts = { activeSeconds: 60, heldSeconds: 3600 };

/** What a call runs on: the clock of its glare retries, and its RTP timeouts. */
export interface CallSettings {
  timers?: SipTimers;
  rtpTimeouts?: RtpTimeouts;
}

/** Our session in SDP: its id and version (RFC 4566 `o=`), the address and port of our media. */
interface LocalSession {
  sessionId: number;
  version: number;
  address: string;
}

/**
 * A SIP call with its media, for both directions: the user agent over an inbound INVITE we
 * answer (UAS) or an outgoing one its callee answered (UAC). It opens the media (inbound: on
 * the answer; outbound: before the offer), plays and records through the media worker, follows
 * the far end's re-offers (hold, a new address), keeps the far end told of our direction
 * (Hold, Resume) and hangs up. The engine's call line is built over it; it knows no RCML.
 */
export class SipCall implements MediaCall {
  private channel: MediaChannel | undefined;
  private opening: Promise<MediaChannel> | undefined;
  private finished = false;
  private localDirection: Direction = 'sendrecv';
  private muted = false;
  /** Our own offers of a direction (Hold, Resume) as re-INVITEs to the far end. */
  private readonly offers: DirectionOffers;
  onDigit: ((key: string) => void) | undefined;
  onEnd: ((how: FarEndEnd) => void) | undefined;
  onFinished: (() => void) | undefined;
  /** The call was ended for want of RTP (for logs). */
  onRtpTimeout: ((seconds: number) => void) | undefined;
  /** Its RTP could not be sent (for logs: the caller may hear nothing). */
  onSendFailed: ((reason: string) => void) | undefined;

  private constructor(
    private readonly signalling: UasInvite | UacInvite,
    private negotiated: Negotiated,
    /** The far end's latest SDP (its offer, or its answer to ours): the template of ours. */
    private remoteSdp: string,
    private readonly local: LocalSession,
    /** Whether the far end's media may move to `address` (a re-offer elsewhere gets 488). */
    private readonly allowsMedia: (address: string) => boolean,
    timers: SipTimers,
    /** The RTP timeouts in force. */
    private readonly rtpTimeouts: RtpTimeouts,
    private readonly media?: MediaHost,
  ) {
    this.offers = new DirectionOffers(
      (direction, done) => {
        const channel = this.channel;
        if (!channel || this.finished) return false;
        const sdp = this.sdpFor({ ...this.negotiated, direction }, channel.port, 1);
        if (!this.signalling.sendOffer(sdp, done)) return false;
        this.local.version += 1;
        return true;
      },
      () => this.finished,
      timers,
    );
  }

  /** An inbound call (UAS): the media open when it is answered. */
  static inbound(
    invite: UasInvite,
    media: MediaHost,
    publicAddress: string,
    settings: CallSettings = {},
  ): SipCall {
    const local = { sessionId: Math.floor(Math.random() * 1e9), version: 1, address: publicAddress };
    const call = new SipCall(
      invite,
      invite.negotiated,
      invite.invite.body,
      local,
      () => true,
      settings.timers ?? realSipTimers,
      settings.rtpTimeouts ?? RTP_TIMEOUTS,
      media,
    );
    invite.events = { ...call.dialogUser(), canceled: () => call.farEnd('canceled') };
    return call;
  }

  /**
   * An outgoing call (UAC) its callee answered with `negotiated` (its SDP `answer`): the media
   * opened for our offer now follow the answer.
   */
  static outbound(
    invite: UacInvite,
    channel: MediaChannel,
    negotiated: Negotiated,
    answer: string,
    local: LocalSession,
    allowsMedia: (address: string) => boolean,
    settings: CallSettings = {},
  ): SipCall {
    const call = new SipCall(
      invite,
      negotiated,
      answer,
      local,
      allowsMedia,
      settings.timers ?? realSipTimers,
      settings.rtpTimeouts ?? RTP_TIMEOUTS,
    );
    call.channel = channel;
    call.watch(channel);
    channel.update(call.path(), {
      codec: negotiated.codec,
      payloadType: negotiated.payloadType,
      dtmfPayloadType: negotiated.dtmfPayloadType,
      ptime: negotiated.ptime,
    });
    if (invite.dialog) invite.dialog.user = call.dialogUser();
    return call;
  }

  get answered(): boolean {
    return this.signalling.answered;
  }

  get ended(): boolean {
    return this.finished;
  }

  mediaChannel(): MediaChannel | undefined {
    return this.finished ? undefined : this.channel;
  }

  /** 180 Ringing (an inbound call). */
  ring(): void {
    if ('ringing' in this.signalling) this.signalling.ringing();
  }

  /** Inbound: opens the media and answers 200 OK with our SDP. Outbound: answered already. */
  async answer(): Promise<void> {
    const invite = this.signalling;
    if (!('ringing' in invite) || this.finished || invite.answered) return;
    const channel = await this.open();
    if (this.finished) return;
    invite.answer(this.sdpFor(this.negotiated, channel.port));
  }

  /** Plays PCM; true when stopped early. Before the answer or after the end, nothing plays. */
  async play(pcm: Int16Array, loop: number, signal?: AbortSignal, key?: string): Promise<boolean> {
    const channel = this.channel;
    if (!channel || this.finished) return true;
    return channel.play(pcm, loop, signal, key);
  }

  /** Records the far end (see `MediaChannel.record`). */
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

  /** Refuses a call not answered yet (404, 486, 603...); an answered one is hung up. */
  reject(status: number): void {
    if (this.finished) return;
    const invite = this.signalling;
    if (!('ringing' in invite)) {
      this.hangup();
      return;
    }
    this.finish();
    invite.reject(status);
  }

  /** Our hang-up: BYE when answered, a refusal (480) while an inbound call rings. */
  hangup(): void {
    if (this.finished) return;
    this.finish();
    this.signalling.hangup();
  }

  /** The far end canceled or hung up (or never acknowledged our answer). */
  farEnd(how: FarEndEnd): void {
    if (this.finished) return;
    this.finish();
    this.onEnd?.(how);
  }

  private finish(): void {
    this.finished = true;
    this.offers.dispose();
    this.channel?.close();
    this.onFinished?.();
  }

  /** What the call's dialog reports to it. */
  private dialogUser(): DialogUser {
    return {
      ended: () => this.farEnd('hangup'),
      reoffer: (sdp) => this.reoffer(sdp),
      offer: () => {
        if (!this.channel || this.finished) return null;
        this.local.version += 1;
        return this.sdpFor(this.negotiated, this.channel.port);
      },
      digit: (key) => this.onDigit?.(key),
      confirmed: () => this.offers.retry(),
    };
  }

  /** What the call hears of its media channel: keys, and RTP that stopped (the call ends, BYE). */
  private watch(channel: MediaChannel): void {
    channel.onDigit = (key) => this.onDigit?.(key);
    channel.onSendFailed = (reason) => this.onSendFailed?.(reason);
    channel.onRtpTimeout = (seconds) => {
      if (this.finished) return;
      this.onRtpTimeout?.(seconds);
      this.hangup();
      this.onEnd?.('hangup');
    };
  }

  /**
   * The media path: the agreed direction, then ours and the mute on top; and the RTP timeout
   * that fits whether the far end should be sending.
   */
  private path(): MediaPath {
    const d = this.negotiated.direction;
    const local = this.localDirection;
    // `d` is our side's direction in the agreed session: the far end sends when we receive.
    const farSends = (d === 'sendrecv' || d === 'recvonly') && this.negotiated.remote !== null;
    const seconds = farSends ? this.rtpTimeouts.activeSeconds : this.rtpTimeouts.heldSeconds;
    return {
      remote: this.negotiated.remote,
      send:
        (d === 'sendrecv' || d === 'sendonly') &&
        !this.muted &&
        (local === 'sendrecv' || local === 'sendonly'),
      receive: (d === 'sendrecv' || d === 'recvonly') && (local === 'sendrecv' || local === 'recvonly'),
      rtpTimeoutMs: seconds * 1000,
    };
  }

  private open(): Promise<MediaChannel> {
    const media = this.media as MediaHost;
    this.opening ??= media
      .open({
        codec: this.negotiated.codec,
        payloadType: this.negotiated.payloadType,
        dtmfPayloadType: this.negotiated.dtmfPayloadType,
        ptime: this.negotiated.ptime,
        ...this.path(),
      })
      .then((channel) => {
        this.channel = channel;
        this.watch(channel);
        if (this.finished) channel.close();
        return channel;
      });
    return this.opening;
  }

  /** Our SDP for `negotiated` on `port`, `ahead` versions past the current one. */
  private sdpFor(negotiated: Negotiated, port: number, ahead = 0): string {
    return buildAnswer(this.remoteSdp, negotiated, {
      sessionId: this.local.sessionId,
      version: this.local.version + ahead,
      address: this.local.address,
      port,
    });
  }

  /**
   * A re-offer of the far end (re-INVITE or UPDATE with SDP: hold, resume, a new address, a
   * codec): the call's codec stays while it is offered, else the first offered G.711 one; the
   * address and direction follow the new offer, where the policy lets the media go.
   */
  private reoffer(sdp: string): string | null {
    const next = negotiate(sdp, this.negotiated.codec);
    if ('status' in next || !this.channel || this.finished) return null;
    const address = next.remote?.address;
    if (address !== undefined && !this.allowsMedia(address)) return null;
    // The same codec keeps its payload type; another G.711 one (the current one not offered
    // again) is switched to, RFC 3264 section 8.3.2.
    const switched = next.codec !== this.negotiated.codec || next.ptime !== this.negotiated.ptime;
    this.negotiated =
      next.codec !== this.negotiated.codec ? next : { ...next, payloadType: this.negotiated.payloadType };
    this.remoteSdp = sdp;
    this.local.version += 1;
    this.channel.update(
      this.path(),
      switched
        ? {
            codec: next.codec,
            payloadType: next.payloadType,
            dtmfPayloadType: next.dtmfPayloadType,
            ptime: next.ptime,
          }
        : undefined,
    );
    return this.sdpFor(this.negotiated, this.channel.port);
  }
}
