import { isIP } from 'node:net';
import { addressList, EgressGuard, type EgressPolicy } from '../engine/fetch/egress.js';
import type { CallLine } from '../engine/ports/call-line.js';
import type { InboundVoice } from '../engine/ports/inbound-voice.js';
import type { Telephony } from '../engine/ports/telephony.js';
import type { CallRecord } from '../engine/records.js';
import { MediaHost } from './media/host.js';
import type { MediaStats } from './media/protocol.js';
import type { SipSourceLimits } from './sip/admission.js';
import { authorizeClientInvite } from './sip/client-invite.js';
import { openSipEndpoint } from './sip/endpoint.js';
import { headerSpelling } from './sip/message.js';
import { Registrar, type SipBinding, type SipClientDirectory } from './sip/registrar.js';
import { realSipTimers, type SipTimers } from './sip/timers.js';
import type { UasInvite } from './sip/uas-invite.js';
import { RTP_TIMEOUTS, type RtpTimeouts, SipCall } from './sip-call.js';
import { SipCallLine } from './sip-line.js';
import { SipTelephony } from './sip-telephony.js';
import { type SipTrunk, trunkUriProblem } from './sip-trunk.js';
import { createEspeakTts } from './tts/espeak.js';
import type { TextToSpeech } from './tts/port.js';

/** What the SIP service needs of the engine: routed numbers and a way to start a call on a line. */
export interface InboundCalls {
  /** True when inbound calls to `number` run an application. */
  hasNumber(number: string): boolean;
  /** Runs an inbound call on `line`, as `incomingCall` does for a simulated caller. */
  acceptCall(input: {
    line: CallLine;
    from: string;
    to: string;
    headers?: Record<string, string>;
    /** The call's account (a client's call: the client's). */
    accountSid?: string;
    /** The document to run rather than the routing of `to` (a client's call: its voice URL). */
    voice?: InboundVoice;
  }): Readonly<CallRecord>;
}

/** Options of `startSipService`. */
export interface SipServiceOptions {
  /** Engine side of inbound calls. */
  calls: InboundCalls;
  /** SIP listening address (UDP and TCP). Default 127.0.0.1. */
  host?: string;
  /** SIP port (0: any free one). Default 5060. */
  port?: number;
  /** Address in Contact, Via and SDP. Default `host` (127.0.0.1 for a wildcard bind). */
  publicAddress?: string;
  /** RTP ports. Default 20000-29999. */
  rtpPorts?: { min: number; max: number };
  /** Text to speech. Default espeak-ng with a disk cache in `ttsCacheDir`. */
  tts?: TextToSpeech;
  /** Disk cache of the default TTS. Default `<tmpdir>/rcml-tts`. */
  ttsCacheDir?: string;
  /** New INVITEs per second accepted from one non-loopback address. Default 20. */
  invitesPerSecond?: number;
  /** The other per-source limits (calls in set-up, TCP connections, the IPv6 prefix of a source). */
  limits?: SipSourceLimits;
  /**
   * Asked before each new call: a SIP status to refuse it with (503 while the server drains or
   * is at its live-call limit), or undefined to take it.
   */
  admit?(): number | undefined;
  /**
   * Which addresses outgoing INVITEs may go to (default: any). `rcml serve` passes the same
   * policy as for HTTP.
   */
  egress?: EgressPolicy;
  /**
   * Where calls to numbers (`+15551234`, `5551234`) go as INVITEs, the number as user part,
   * with digest credentials for its challenges. Without it, numbers stay simulated.
   */
  trunk?: SipTrunk;
  /**
   * Addresses and CIDR blocks that may send requests (new calls, OPTIONS); others get no
   * answer. Requests within our dialogs are always taken. Default: any source.
   */
  allowSources?: readonly string[];
  /**
   * The clients that may REGISTER (digest, realm = the public address, user name = the
   * login) and be called as `client:<login>`; an INVITE from one with a voice URL is challenged
   * (407) and runs that URL for its account. Without it REGISTER gets 405, `client:` targets
   * stay simulated and every INVITE is routed by number.
   */
  clients?: SipClientDirectory;
  /**
   * Numbers a registered client's own call (one it placed from its softphone) may dial through
   * the trunk: prefixes such as `+1` or `+44`, or `*` for any. Default none: a client's call
   * never reaches the trunk (a cracked softphone password is no toll fraud). Calls placed over
   * REST, by the account, are not limited by it.
   */
  clientDialOut?: readonly string[];
  /**
   * Digest algorithms clients are challenged with, in order: `['SHA-256', 'MD5']` offers
   * SHA-256 first (RFC 8760). Default `['MD5']` (SIPp and many softphones answer only the first
   * challenge and only MD5).
   */
  digestAlgorithms?: ReadonlyArray<'SHA-256' | 'MD5'>;
  /**
   * How long a call may go without RTP from its far end before it is ended with a BYE: while
   * the far end should be sending (default 60 s), and while it holds the call (default 3600 s);
   * 0 turns either off.
   */
  rtpTimeouts?: Partial<RtpTimeouts>;
  /** The time of SIP's retransmissions, transaction timers and glare retries. Default the real clock. */
  timers?: SipTimers;
  /**
   * A request refused before it became a call, for metrics (no call record is written for
   * it): `unknown-number` (an INVITE to a number nobody routes, without clients), `challenged`
   * (with clients, one to anything but a routed number and without credentials: a client's
   * first try, or a scan), `auth` (a wrong answer, a lockout), `no-new-calls` (draining, or at
   * the live-call limit).
   */
  onRefused?(reason: 'unknown-number' | 'challenged' | 'auth' | 'no-new-calls'): void;
  /** Warnings (refused requests, unreadable messages) and errors. */
  onWarning?(message: string, detail: Record<string, unknown>): void;
}

/** A running SIP service. */
export interface SipService {
  readonly host: string;
  readonly port: number;
  readonly publicAddress: string;
  /** The media worker's pacing loop and receiver figures since the last call. */
  mediaStats(): Promise<MediaStats>;
  /** The registered clients' live bindings (empty without `clients`). */
  registrations(): Array<{ login: string } & SipBinding>;
  /** The live binding of `login` for `accountSid`, if it is registered. */
  registrationOf(accountSid: string, login: string): SipBinding | undefined;
  /**
   * The engine's `Telephony` over this service: `sip:` targets are called over SIP; anything
   * else goes to `fallback` (the simulated parties).
   */
  telephony(fallback: Telephony): Telephony;
  close(): Promise<void>;
}

const CONTROL = /[\r\n\0]/;

/**
 * The `X-` headers of an INVITE by their usual spelling (`SipHeader_X-<Name>` webhook
 * parameters); undefined when a value holds CR, LF or NUL (the INVITE is refused).
 */
export function customHeaders(server: UasInvite): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const [name, value] of server.invite.headers) {
    if (!name.startsWith('x-')) continue;
    if (CONTROL.test(value)) return undefined;
    const spelled = headerSpelling(name);
    headers[spelled] = headers[spelled] === undefined ? value : `${headers[spelled]},${value}`;
  }
  return headers;
}

/** Whether a source address is on the allow list (an IPv4-mapped IPv6 address as its IPv4 one). */
export function sourceFilter(entries: readonly string[]): (address: string) => boolean {
  const list = addressList(entries, 'SIP allow list');
  return (address) => {
    const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    return list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  };
}

/** A character a caller id may not carry as is: a control character, a quote, an angle bracket. */
const unsafeInCallerId = (c: string) =>
  c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || '<>"'.includes(c);

/**
 * The caller id of an INVITE that no client authenticated: its From user (CR, LF, quotes and
 * angle brackets percent-encoded), never one that reads as `client:` (only an authenticated
 * client's call carries that: `client%3A...` instead), else `anonymous`.
 */
export function plainCallerId(server: UasInvite): string {
  const user = [...server.callerUser].map((c) => (unsafeInCallerId(c) ? encodeURIComponent(c) : c)).join('');
  if (user === '') return 'anonymous';
  return /^client:/i.test(user) ? `client%3A${user.slice(7)}` : user;
}

/** The routed number an INVITE's user part means: as written, or with/without a leading `+`. */
export function routedNumber(calls: InboundCalls, user: string): string {
  if (calls.hasNumber(user)) return user;
  const other = user.startsWith('+') ? user.slice(1) : `+${user}`;
  return calls.hasNumber(other) ? other : user;
}

/**
 * Answers real calls: a SIP endpoint, the media worker and the TTS, and for each INVITE an
 * engine call bound to a SIP call line. It rings (180) while the first document loads; the
 * engine answers through the line. An unknown number ends as the engine says (404).
 */
export async function startSipService(options: SipServiceOptions): Promise<SipService> {
  const host = options.host ?? '127.0.0.1';
  const trunkProblem = options.trunk && trunkUriProblem(options.trunk.uri);
  if (trunkProblem) throw new TypeError(`SIP trunk: ${trunkProblem}`);
  const acceptsFrom = options.allowSources && sourceFilter(options.allowSources);
  const timers = options.timers ?? realSipTimers;
  const rtpTimeouts = { ...RTP_TIMEOUTS, ...options.rtpTimeouts };
  const media = new MediaHost({ host, ports: options.rtpPorts });
  const warn = (message: string, detail: Record<string, unknown>) => options.onWarning?.(message, detail);
  let tts = options.tts;
  if (!tts) {
    const espeak = createEspeakTts({ cacheDir: options.ttsCacheDir });
    // Said at start-up rather than on the first Say: calls still run, their speech fails.
    espeak.check().catch((err: Error) =>
      warn('espeak-ng cannot run: Say will fail on SIP calls (apt-get install espeak-ng sox)', {
        err: err.message,
      }),
    );
    tts = espeak;
  }
  const live = new Set<SipCall>();
  const lines = new Map<string, SipCallLine>();
  /** The live calls registered clients placed (their Dials obey `clientDialOut`). */
  const clientCalls = new Set<string>();
  let registrar: Registrar | undefined;
  let endpoint: Awaited<ReturnType<typeof openSipEndpoint>>;
  try {
    endpoint = await openSipEndpoint({
      host,
      port: options.port ?? 5060,
      publicAddress: options.publicAddress,
      limits: {
        ...options.limits,
        invitesPerSecond: options.invitesPerSecond ?? options.limits?.invitesPerSecond,
      },
      acceptsFrom,
      timers,
      onRegister: options.clients
        ? (request, peer) => (registrar as Registrar).register(request, peer)
        : undefined,
      onWarning: (message, peer) =>
        warn(message, peer ? { peer: `${peer.transport}:${peer.address}:${peer.port}` } : {}),
      onInvite(server) {
        const refusal = options.admit?.();
        if (refusal !== undefined) {
          warn('INVITE refused: no new calls now', { callId: server.callId, status: refusal });
          options.onRefused?.('no-new-calls');
          server.reject(refusal);
          return;
        }
        const headers = customHeaders(server);
        if (!headers) {
          warn('INVITE refused: a header value holds CR or LF', { callId: server.callId });
          server.reject(400);
          return;
        }
        const to = routedNumber(options.calls, server.calledUser);
        // With clients, whatever is not a routed number is a client's call: authenticated, then
        // run by its voice URL.
        const placed = registrar
          ? authorizeClientInvite(server, registrar, options.calls.hasNumber(to))
          : { kind: 'number' as const };
        if (placed.kind === 'refuse') {
          options.onRefused?.(placed.status === 407 ? 'challenged' : 'auth');
          if (placed.status !== 407)
            warn('INVITE from a client refused', {
              callId: server.callId,
              status: placed.status,
              source: server.peer.address,
            });
          server.reject(placed.status, { reason: placed.reason, headers: placed.headers });
          return;
        }
        // A number nobody routes: a scan or a wrong number, refused here without a call record
        // (a scanner's thousands of tries would otherwise each leave one), counted instead.
        if (placed.kind === 'number' && !options.calls.hasNumber(to)) {
          options.onRefused?.('unknown-number');
          server.reject(404);
          return;
        }
        const call = SipCall.inbound(server, media, endpoint.publicAddress, { timers, rtpTimeouts });
        call.onRtpTimeout = (seconds) =>
          warn('SIP call ended: no RTP from the caller', { callId: server.callId, seconds });
        call.onSendFailed = (reason) =>
          warn('SIP call media cannot be sent: the caller may hear nothing', {
            callId: server.callId,
            reason,
            remote: server.negotiated.remote?.address,
          });
        const line = new SipCallLine(call, tts, (err) =>
          warn('SIP call media failed', {
            callId: server.callId,
            err: err instanceof Error ? err.message : String(err),
          }),
        );
        live.add(call);
        let sid: string | undefined;
        call.onFinished = () => {
          live.delete(call);
          if (sid !== undefined) {
            lines.delete(sid);
            clientCalls.delete(sid);
          }
        };
        sid = options.calls.acceptCall({
          line,
          headers: Object.keys(headers).length > 0 ? headers : undefined,
          ...(placed.kind === 'client'
            ? {
                from: `client:${placed.login}`,
                // The dialed user part as it is: a number or another client's login.
                to: server.calledUser,
                accountSid: placed.accountSid,
                voice: placed.voice,
              }
            : { from: plainCallerId(server), to }),
        }).sid;
        if (!call.ended) {
          lines.set(sid, line);
          if (placed.kind === 'client') clientCalls.add(sid);
          call.ring();
        }
      },
    });
  } catch (err) {
    await media.close();
    throw err;
  }
  const sweep = setInterval(() => registrar?.sweep(), 60_000);
  sweep.unref();
  if (options.clients)
    registrar = new Registrar(options.clients, endpoint.publicAddress, {
      now: () => timers.now(),
      algorithms: options.digestAlgorithms,
      onNewSource: (login, binding, previous) =>
        warn('SIP client registered from a new source', {
          login,
          accountSid: binding.accountSid,
          source: binding.source,
          contact: binding.contact,
          previousSource: previous?.source,
        }),
    });
  return {
    host: endpoint.host,
    port: endpoint.port,
    publicAddress: endpoint.publicAddress,
    mediaStats: () => media.stats(),
    registrations: () => registrar?.registrations() ?? [],
    registrationOf: (accountSid, login) => registrar?.lookup(login, accountSid),
    telephony: (fallback) =>
      new SipTelephony(
        {
          endpoint,
          media,
          tts,
          egress: new EgressGuard(options.egress ?? { denyPrivateNetworks: false }),
          live,
          lines,
          warn,
          trunk: options.trunk,
          registrar,
          timers,
          clientCalls,
          clientDialOut: options.clientDialOut ?? [],
          rtpTimeouts,
        },
        fallback,
      ),
    async close() {
      clearInterval(sweep);
      for (const call of [...live]) call.hangup();
      live.clear();
      await endpoint.close();
      await media.close();
    },
  };
}
