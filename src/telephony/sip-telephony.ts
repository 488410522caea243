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
import type { MediaChannel, MediaHost } from './media/host.js';
import type { MediaCall } from './media-call.js';
import type { ClientCall } from './sip/client-call.js';
import type { SipEndpoint } from './sip/endpoint.js';
import type { Registrar } from './sip/registrar.js';
import { buildAnswer, buildOffer, type Negotiated, negotiate, readAnswer } from './sip/sdp.js';
import type { SipPeer } from './sip/transport.js';
import { SipCallLine } from './sip-line.js';
import { OutboundSipCall } from './sip-outbound-call.js';
import { dialFailureOf, fromUserOf, inviteHeadersOf, sipTargetOf } from './sip-target.js';
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
  live: Set<MediaCall>;
  warn(message: string, detail: Record<string, unknown>): void;
  /** Where calls to numbers go; without one they stay with the simulated parties. */
  trunk?: SipTrunk;
  /** Registered clients: `client:<login>` targets go to their Contact. */
  registrar?: Registrar;
}

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
 * The `Telephony` of `rcml serve --sip`: `sip:` targets, and numbers when a trunk is set, are
 * called over SIP (an INVITE from the service's address, RTP from its media worker); other
 * numbers, `client:` targets and rooms stay with `fallback` (the simulated parties).
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
    let canceled = false;
    let placed: ClientCall | undefined;
    let channel: MediaChannel | undefined;
    let rang = false;
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
          ? sipTargetOf(binding.contact, { userless: true })
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
      let outbound: OutboundSipCall | undefined;
      call.events = {
        progress: () => {
          if (rang) return;
          rang = true;
          events.ringing();
        },
        answered: (sdp) => {
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
        ended: () => outbound?.farEnd(),
        digit: (key) => outbound?.onDigit?.(key),
        reoffer: (sdp) => {
          const next = negotiate(sdp);
          const address = 'status' in next ? undefined : next.remote?.address;
          // A re-offer may not move the media where the policy forbids (answered 488).
          if (address !== undefined && !allows(address)) return null;
          return outbound?.reoffer(sdp) ?? null;
        },
      };
      /** The answer is usable and allowed: the media follow it and the engine gets the line. */
      const bridge = (negotiated: Negotiated, sdp: string) => {
        outbound = new OutboundSipCall(call, media, negotiated, sdp, (offer, next) => {
          local.version += 1;
          return buildAnswer(offer, next, local);
        });
        const line: CallLine = new SipCallLine(outbound, deps.tts, (err) =>
          deps.warn('SIP call media failed', {
            callSid: sid,
            err: err instanceof Error ? err.message : String(err),
          }),
        );
        deps.live.add(outbound);
        const tracked = outbound;
        outbound.onFinished = () => deps.live.delete(tracked);
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
   * Two SIP lines are bridged in the media worker (each sends what the other receives, in its
   * own RTP stream); any other pair is left to `fallback`. A recorded bridge's audio is
   * `fallback`'s (silence of its length): bridges do not record over SIP yet.
   */
  connect(a: CallLine, b: CallLine, options: { record: boolean }): LineBridge {
    const left = channelOf(a);
    const right = channelOf(b);
    if (!left || !right) return this.fallback.connect(a, b, options);
    left.link(right);
    const recorded = options.record ? this.fallback.connect(a, b, options) : undefined;
    return {
      disconnect(done) {
        left.link(null);
        if (recorded) recorded.disconnect(done);
        else done(undefined);
      },
    };
  }

  room(sid: string, name: string): ConferenceMixer {
    return this.fallback.room(sid, name);
  }
}
