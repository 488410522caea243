/**
 * Symmetric RTP (RFC 4961) with latching (RFC 7362), strictly (as rtpengine is): a call's media
 * latch onto the source of the far end's first valid packet; RTP from anywhere else is dropped,
 * and ours goes to the SDP's address once that host has sent RTP (its port as the SDP says), to
 * the latched source when it is another host (a caller behind NAT). Before any RTP, the SDP's
 * address gets at most {@link UNPROVEN_PACKETS}: an INVITE naming a third party's address
 * reflects almost nothing at it.
 */

/** Packets sent to the SDP's address before the far end has sent RTP (200 ms of audio). */
export const UNPROVEN_PACKETS = 10;
/** Comfort noise (RFC 3389): a valid packet, though no audio. */
const CN = 13;

/** Where a packet came from, or goes. */
export interface PacketSource {
  address: string;
  port: number;
}

export class RtpLatch {
  private source: PacketSource | undefined;
  /** Whether the latched source has sent audio (or only comfort noise so far). */
  private sourceSentAudio = false;
  /** Packets sent to the SDP's address before any RTP came. */
  private unproven = 0;
  /** The SDP's address the latching holds for. */
  private latchedFor: PacketSource | undefined;

  constructor(sdp: PacketSource | null) {
    this.latchedFor = sdp ?? undefined;
  }

  /** The far end's latched source, if it has sent valid RTP yet. */
  get latched(): PacketSource | undefined {
    return this.source;
  }

  /** The SDP's address now: a new one (a re-INVITE moving the media) is proven anew. */
  follow(sdp: PacketSource | null): void {
    if (!sdp || (sdp.address === this.latchedFor?.address && sdp.port === this.latchedFor.port)) return;
    this.latchedFor = sdp;
    this.source = undefined;
    this.unproven = 0;
  }

  /** Where a packet goes now (counting it against the unproven budget), or nowhere. */
  destination(sdp: PacketSource | null): PacketSource | undefined {
    if (!sdp) return undefined;
    const source = this.source;
    if (source) return source.address === sdp.address ? sdp : source;
    if (this.unproven >= UNPROVEN_PACKETS) return undefined;
    this.unproven++;
    return sdp;
  }

  /**
   * Whether a packet of `payloadType` from `from` is the far end's: from the latched source, or,
   * before there is one, any of the call's payload types (`audio`) or comfort noise (the first
   * latches). A source that has sent only comfort noise gives way to one on the same host that
   * sends audio (a listener and a sender on two ports of one machine); a stranger elsewhere never.
   */
  takes(from: PacketSource, payloadType: number, audio: boolean): boolean {
    const source = this.source;
    if (source && source.address === from.address && source.port === from.port) {
      if (audio) this.sourceSentAudio = true;
      return true;
    }
    if (!audio && payloadType !== CN) return false;
    const takeover =
      source !== undefined && !this.sourceSentAudio && audio && source.address === from.address;
    if (source && !takeover) return false;
    this.source = { address: from.address, port: from.port };
    this.sourceSentAudio = audio;
    return true;
  }
}
