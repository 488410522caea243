import { isIP } from 'node:net';
import type { EgressGuard } from '../engine/fetch/egress.js';
import type { CallLine } from '../engine/ports/call-line.js';
import type {
  ConferenceMixer,
  DialAttempt,
  DialEvents,
  DialRequest,
  LineBridge,
  Telephony,
} from '../engine/ports/telephony.js';
import { encodeWav } from './audio/decode.js';
import type { MediaChannel, MediaHost } from './media/host.js';
import type { SipEndpoint } from './sip/endpoint.js';
import type { Registrar } from './sip/registrar.js';
import { buildOffer, type Negotiated, readAnswer } from './sip/sdp.js';
import type { SipTimers } from './sip/timers.js';
import type { SipPeer } from './sip/transport.js';
import type { UacInvite } from './sip/uac-invite.js';
import { type RtpTimeouts, SipCall } from './sip-call.js';
import { SipCallLine } from './sip-line.js';
import { SipConferenceMixer } from './sip-room.js';
import { bindingTargetOf, dialFailureOf, fromUserOf, inviteHeadersOf, sipTargetOf } from './sip-target.js';
import { isTrunkNumber, type SipTrunk, trunkTargetOf } from './sip-trunk.js';
import type { TextToSpeech } from './tts/port.js';

/** What the SIP telephony places calls with. */
export interface SipTelephonyDeps {
  endpoint: SipEndpoint;
  media: MediaHost;
  tts: TextToSpeech;
  /** The egress policy, applied to the address each INVITE goes to. */
  egress: EgressGuard;
  /** The service's live calls (hung up when it closes). */
  live: Set<SipCall>;
  /** The SIP lines of live calls by call sid (a leg's early media go to its parent's line). */
  lines: Map<string, SipCallLine>;
  warn(message: string, detail: Record<string, unknown>): void;
  /** Where calls to numbers go; without one they stay with the simulated parties. */
  trunk?: SipTrunk;
  /** Registered clients: `client:<login>` targets go to their Contact. */
  registrar?: Registrar;
  /** The time of the calls' glare retries. */
  timers?: SipTimers;
  /** Sids of the live calls registered clients placed. */
  clientCalls?: ReadonlySet<string>;
  /** Number prefixes (or `*`) a client's call may dial through the trunk. */
  clientDialOut?: readonly string[];
  /** How long an answered leg may go without RTP. */
  rtpTimeouts?: RtpTimeouts;
}

/** Longest recording of a Dial bridge: 4 hours, the Dial's default `timeLimit`. */
export const BRIDGE_RECORDING_MAX_MS = 4 * 3600 * 1000;

/** The media of a SIP line (inbound or outgoing) while it is open. */
function channelOf(line: CallLine): MediaChannel | undefined {
  return line instanceof SipCallLine ? line.call.mediaChannel() : undefined;
}

/** Resolves a host to one address the egress policy allows. */
function resolve(egress: EgressGuard, host: string): Promise<string> {
  if (isIP(host)) {
    const why = egress.refusal(host);
    return why
      ? Promise.reject(new Error(`address ${host} is ${why}, refused by the egress policy`))
      : Promise.resolve(host);
  }
  return new Promise((done, fail) =>
    egress.lookup(host, { family: 0 }, (err, address) => (err ? fail(err) : done(address as string))),
  );
}

/**
 * Whether the egress policy lets an answer's Contact or RTP address be used, at once: under a
 * policy that refuses anything, only an allowed IP address (a host name is not resolved here).
 */
function allowsAnswer(egress: EgressGuard, host: string): boolean {
  if (!egress.policy.denyPrivateNetworks) return true;
  return isIP(host) !== 0 && egress.refusal(host) === undefined;
}

/**
 * The `Telephony` of `rcml serve --sip`: `sip:` targets, numbers when a trunk is set and
 * registered `client:` targets are called over SIP (an INVITE from the service's address, RTP
 * from its media worker); bridges of two SIP lines and rooms' SIP members are mixed in the media
 * worker; other targets and lines stay with `fallback` (the simulated parties).
 */
export class SipTelephony implements Telephony {
  constructor(
    private readonly deps: SipTelephonyDeps,
    private readonly fallback: Telephony,
  ) {}

  dial(request: DialRequest, events: DialEvents): DialAttempt {
    const { deps } = this;
    const trunk = deps.trunk && isTrunkNumber(request.to) ? deps.trunk : undefined;
    const client = deps.registrar && /^client:/i.test(request.to) ? request.to.slice(7) : undefined;
    if (!trunk && client === undefined && !/^sips?:/i.test(request.to))
      return this.fallback.dial(request, events);
    const sid = request.call.sid;
    if (trunk && !this.mayUseTrunk(request)) {
      deps.warn(
        "SIP call not placed: a registered client's call may not dial this number through the trunk",
        {
          callSid: sid,
          parentCallSid: request.call.parentCallSid,
          to: request.to,
        },
      );
      events.failed('failed');
      return { cancel() {} };
    }
    let canceled = false;
    let placed: UacInvite | undefined;
    let channel: MediaChannel | undefined;
    let rang = false;
    /** The caller's media the callee's early media are linked to, until the answer. */
    let early: MediaChannel | undefined;
    const fail = (message: string, detail: Record<string, unknown>) => {
      deps.warn(message, { callSid: sid, ...detail });
      channel?.close();
      if (!canceled) events.failed('failed');
    };
    const binding =
      client === undefined ? undefined : deps.registrar?.lookup(client, request.call.accountSid);
    const allows = (host: string) => allowsAnswer(deps.egress, host);
    const target =
      client !== undefined
        ? binding
          ? bindingTargetOf(binding)
          : { error: `client '${client.slice(0, 40)}' of this account is not registered` }
        : sipTargetOf(trunk ? trunkTargetOf(request.to, trunk) : request.to);
    const credentials =
      trunk?.username !== undefined
        ? { username: trunk.username, password: trunk.password ?? '' }
        : undefined;
    const headers = inviteHeadersOf(request.headers);
    const place = async () => {
      if ('error' in target) return fail('SIP call not placed: bad target', { err: target.error });
      if ('error' in headers) return fail('SIP call not placed: bad headers', { err: headers.error });
      let address: string;
      try {
        address = await resolve(deps.egress, target.host);
      } catch (err) {
        return fail('SIP call not placed', { err: err instanceof Error ? err.message : String(err) });
      }
      if (canceled) return;
      // Opened first: its port goes in our offer. Silent and deaf until the answer.
      channel = await deps.media.open({
        codec: 'PCMU',
        payloadType: 0,
        remote: null,
        send: false,
        receive: false,
      });
      if (canceled) {
        channel.close();
        return;
      }
      const local = {
        sessionId: Math.floor(Math.random() * 1e9),
        version: 1,
        address: deps.endpoint.publicAddress,
        port: channel.port,
      };
      const peer: SipPeer = { transport: target.transport, address, port: target.port };
      const call = deps.endpoint.invite({
        uri: target.uri,
        peer,
        fromUser: fromUserOf(request.from),
        sdp: buildOffer(local),
        headers,
        credentials,
        allowsHost: allows,
      });
      placed = call;
      const media = channel;
      call.events = {
        progress: (_status, sdp) => {
          if (sdp && !early) early = this.earlyMedia(media, sdp, request.call.parentCallSid);
          if (rang) return;
          rang = true;
          events.ringing();
        },
        answered: (sdp) => {
          // The bridge (or the screening) decides what the caller hears from now on.
          if (early) media.link(null);
          const negotiated = readAnswer(sdp);
          if ('status' in negotiated) {
            call.hangup();
            return fail('SIP call hung up: unusable SDP answer', { err: negotiated.reason });
          }
          // Where the callee's answer sends us (its Contact, its RTP address) obeys the policy too.
          const address = negotiated.remote?.address;
          if (call.targetRefused || (address !== undefined && !allows(address))) {
            call.hangup();
            return fail('SIP call hung up: the answer points where the egress policy forbids', {
              contact: call.targetRefused ? 'refused' : 'allowed',
              media: address,
            });
          }
          bridge(negotiated, sdp);
        },
        failed: (status) => {
          media.close();
          events.failed(dialFailureOf(status));
        },
      };
      /** The answer is usable and allowed: the media follow it and the engine gets the line. */
      const bridge = (negotiated: Negotiated, sdp: string) => {
        // A re-offer may not move the media where the policy forbids (answered 488).
        const outbound = SipCall.outbound(call, media, negotiated, sdp, local, allows, {
          timers: deps.timers,
          rtpTimeouts: deps.rtpTimeouts,
        });
        outbound.onRtpTimeout = (seconds) =>
          deps.warn('SIP call ended: no RTP from the callee', { callSid: sid, seconds });
        outbound.onSendFailed = (reason) =>
          deps.warn('SIP call media cannot be sent: the callee may hear nothing', { callSid: sid, reason });
        const line = new SipCallLine(outbound, deps.tts, (err) =>
          deps.warn('SIP call media failed', {
            callSid: sid,
            err: err instanceof Error ? err.message : String(err),
          }),
        );
        deps.live.add(outbound);
        deps.lines.set(sid, line);
        outbound.onFinished = () => {
          deps.live.delete(outbound);
          deps.lines.delete(sid);
        };
        events.answered(line);
      };
      call.start();
    };
    place().catch((err) =>
      fail('SIP call not placed', { err: err instanceof Error ? err.message : String(err) }),
    );
    return {
      cancel() {
        if (canceled) return;
        canceled = true;
        if (placed && !placed.answered) {
          placed.cancel();
          channel?.close();
        }
      },
    };
  }

  /**
   * Whether a leg to a trunk number may go: always for the account's own calls; for the Dial of a
   * call a registered client placed, only to a number `clientDialOut` allows (none by default).
   */
  private mayUseTrunk(request: DialRequest): boolean {
    const parent = request.call.parentCallSid;
    if (parent === undefined || !this.deps.clientCalls?.has(parent)) return true;
    const allowed = this.deps.clientDialOut ?? [];
    return allowed.some((prefix) => prefix === '*' || request.to.startsWith(prefix));
  }

  /**
   * Early media (a 183 with SDP): the callee's audio goes to its caller (the parent call's SIP
   * line, when answered), one way: the leg takes the callee's RTP but sends nothing yet.
   * Returns the caller's media, or undefined when there is no one to hear it.
   */
  private earlyMedia(
    leg: MediaChannel,
    sdp: string,
    parentSid: string | undefined,
  ): MediaChannel | undefined {
    const caller = parentSid === undefined ? undefined : this.deps.lines.get(parentSid);
    const heard = caller?.call.answered ? caller.call.mediaChannel() : undefined;
    const negotiated = readAnswer(sdp);
    if (!heard || 'status' in negotiated) return undefined;
    leg.update(
      { remote: negotiated.remote, send: false, receive: true },
      {
        codec: negotiated.codec,
        payloadType: negotiated.payloadType,
        dtmfPayloadType: negotiated.dtmfPayloadType,
        ptime: negotiated.ptime,
      },
    );
    leg.link(heard);
    return heard;
  }

  /**
   * Two SIP lines are bridged in the media worker (each sends what the other receives, in its
   * own RTP stream); any other pair is left to `fallback`. A recorded bridge records both
   * sides' received audio mixed to mono, at most {@link BRIDGE_RECORDING_MAX_MS}.
   */
  connect(a: CallLine, b: CallLine, options: { record: boolean }): LineBridge {
    const opening = this.onceOpen(a, b, options);
    if (opening) return opening;
    const left = channelOf(a);
    const right = channelOf(b);
    if (!left || !right) return this.fallback.connect(a, b, options);
    const recording = options.record ? left.linkRecorded(right, BRIDGE_RECORDING_MAX_MS) : undefined;
    if (!recording) left.link(right);
    return {
      disconnect(done) {
        // Taking the bridge apart ends its recording; the worker hands the audio back.
        left.link(null);
        if (!recording) {
          done(undefined);
          return;
        }
        void recording.done.then(({ pcm }) =>
          done({ wav: encodeWav(pcm), duration: Math.round(pcm.length / 8) / 1000 }),
        );
      },
    };
  }

  /**
   * Two SIP lines of which one is still answering (a caller answered by the verb that bridges
   * it, as `<Dial><Queue>` does): they are linked once both media are open, unless the bridge
   * is taken apart first. Undefined when there is nothing to wait for.
   */
  private onceOpen(a: CallLine, b: CallLine, options: { record: boolean }): LineBridge | undefined {
    if (!(a instanceof SipCallLine) || !(b instanceof SipCallLine)) return undefined;
    if (channelOf(a) && channelOf(b)) return undefined;
    let bridge: LineBridge | undefined;
    let parted = false;
    void Promise.all([a.opened(), b.opened()]).then(() => {
      if (parted) return;
      // A line that ended meanwhile has no media: its bridge is silent, as any other.
      bridge =
        channelOf(a) && channelOf(b) ? this.connect(a, b, options) : this.fallback.connect(a, b, options);
    });
    return {
      disconnect(done) {
        parted = true;
        if (bridge) bridge.disconnect(done);
        else done(undefined);
      },
    };
  }

  /**
   * A room's SIP members are mixed in the media worker (`SipConferenceMixer`); its other
   * members (simulated parties) are in the room's bookkeeping but not in its audio.
   */
  room(sid: string, _name: string): ConferenceMixer {
    return new SipConferenceMixer(this.deps.media, this.deps.tts, (message, detail) =>
      this.deps.warn(message, { conferenceSid: sid, ...detail }),
    );
  }
}
