import { parseNameAddr } from './address.js';
import { ClientCall, type ClientCallRequest, type ClientWire } from './client-call.js';
import { type LocalAddress, responseTo, T1, T2 } from './dialog.js';
import { ALLOWED_METHODS } from './in-dialog.js';
import {
  cseqOf,
  headerOf,
  headersOf,
  type SipMessage,
  type SipRequest,
  type SipResponse,
} from './message.js';
import { RateLimiter } from './rate-limit.js';
import { negotiate } from './sdp.js';
import { branchOf, type CallWire, ServerCall } from './server-call.js';
import { openSipTransport, type SipPeer, type SipTransport } from './transport.js';

/** Options of `openSipEndpoint`. */
export interface SipEndpointOptions {
  /** Address to listen on (UDP and TCP). Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 5060. */
  port?: number;
  /** Address written in Contact, Via and SDP (default `host`, or 127.0.0.1 for a wildcard bind). */
  publicAddress?: string;
  /** New INVITEs and REGISTERs accepted per second from one source address (loopback sources are exempt). Default 20. */
  invitesPerSecond?: number;
  /**
   * Whether a source address may send requests outside our dialogs (INVITE, REGISTER,
   * OPTIONS...); those of others are dropped unanswered. Default: any source.
   */
  acceptsFrom?(address: string): boolean;
  /** The answer to a REGISTER (the registrar); without it, REGISTER gets 405. */
  onRegister?(request: SipRequest, peer: SipPeer): SipResponse;
  /** A new call: answer it, reject it or let it ring. */
  onInvite(call: ServerCall): void;
  /** Bytes that were no SIP message, or a refused request (for logs). */
  onWarning?(message: string, peer: SipPeer): void;
}

/** A listening SIP user agent: answers INVITEs and places its own. */
export interface SipEndpoint {
  readonly host: string;
  readonly port: number;
  readonly publicAddress: string;
  /** Places a call: the INVITE leaves once `start()` is called on the result (after `events` are set). */
  invite(request: ClientCallRequest): ClientCall;
  close(): Promise<void>;
}

/** Extensions we accept in a Require header. */
const SUPPORTED = new Set(['timer']);

/**
 * Listens for SIP and routes requests to their calls: a new INVITE makes a `ServerCall`, its
 * retransmissions, CANCEL and ACK find it by branch, in-dialog requests by Call-ID and our tag.
 * Retransmitted non-INVITE requests get the cached answer. Requests of ours (BYE) are
 * retransmitted until their final answer.
 */
export async function openSipEndpoint(options: SipEndpointOptions): Promise<SipEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const publicAddress =
    options.publicAddress ?? (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host);
  const invites = new Map<string, ServerCall>();
  /** Dialogs by Call-ID and our tag: inbound calls and answered outgoing ones. */
  const dialogs = new Map<string, ServerCall | ClientCall>();
  /** Our re-INVITEs by branch. */
  const reinvites = new Map<string, (response: SipResponse) => void>();
  /** Outgoing INVITE transactions by branch (kept a while after the end for late 2xx). */
  const outgoing = new Map<string, ClientCall>();
  const answered = new Map<string, { response: SipResponse; expires: number }>();
  const clients = new Map<string, { timers: NodeJS.Timeout[]; onFinal: (status: number) => void }>();
  const limiter = new RateLimiter(options.invitesPerSecond ?? 20);
  let transport: SipTransport;
  const local: LocalAddress = { host: publicAddress, port: 0 };

  const warn = (message: string, peer: SipPeer) => options.onWarning?.(message, peer);

  const send = (message: SipMessage, peer: SipPeer) => {
    if (message.kind === 'response' && message.status >= 200) {
      // A retransmitted non-INVITE request gets this answer again (RFC 3261 17.2.2).
      const request = message.headers.find(([n]) => n === 'cseq')?.[1] ?? '';
      if (!/INVITE$/i.test(request)) {
        answered.set(`${branchOf(message)}|${request}`, { response: message, expires: Date.now() + 64 * T1 });
      }
    }
    transport.send(message, peer);
  };

  const listening = {
    listen(branch: string, onResponse: (response: SipResponse) => void) {
      reinvites.set(branch, onResponse);
    },
    unlisten(branch: string) {
      reinvites.delete(branch);
    },
  };

  const wire: CallWire = {
    local,
    send,
    ...listening,
    request(request, peer, onFinal) {
      // A CANCEL shares its INVITE's branch: the method tells their answers apart.
      const branch = `${branchOf(request)}|${cseqOfOr(request)}`;
      const timers: NodeJS.Timeout[] = [];
      clients.set(branch, { timers, onFinal });
      transport.send(request, peer);
      if (peer.transport === 'udp') {
        let interval = T1;
        const again = () => {
          transport.send(request, peer);
          interval = Math.min(interval * 2, T2);
          timers[0] = setTimeout(again, interval);
        };
        timers[0] = setTimeout(again, interval);
      }
      timers[1] = setTimeout(() => finish(branch, 408), 64 * T1);
    },
    forget(call) {
      // The INVITE transaction lingers a little for late retransmissions and ACKs.
      dialogs.delete(dialogKey(call.callId, call.localTag));
      setTimeout(() => {
        if (invites.get(call.branch) === call) invites.delete(call.branch);
      }, 64 * T1).unref();
    },
  };

  const clientWire: ClientWire = {
    local,
    send,
    ...listening,
    request: (request, peer, onFinal) => wire.request(request, peer, onFinal),
    confirm(call) {
      dialogs.set(dialogKey(call.callId, call.localTag), call);
    },
    forget(call) {
      dialogs.delete(dialogKey(call.callId, call.localTag));
      setTimeout(() => {
        for (const branch of call.branches) if (outgoing.get(branch) === call) outgoing.delete(branch);
      }, 64 * T1).unref();
    },
    rebranched(call) {
      outgoing.set(call.branch, call);
    },
  };

  const finish = (branch: string, status: number) => {
    const client = clients.get(branch);
    if (!client) return;
    clients.delete(branch);
    for (const t of client.timers) clearTimeout(t);
    client.onFinal(status);
  };

  const onRequest = (request: SipRequest, peer: SipPeer) => {
    const branch = branchOf(request);
    const method = request.method;
    let cseq: { seq: number; method: string };
    try {
      cseq = cseqOf(request);
    } catch {
      if (method !== 'ACK') send(responseTo(request, 400, { reason: 'Bad CSeq' }), peer);
      return;
    }
    if (method !== 'INVITE' && method !== 'ACK') {
      const cached = answered.get(`${branch}|${cseq.seq} ${cseq.method}`);
      if (cached && cached.expires > Date.now()) {
        transport.send(cached.response, peer);
        return;
      }
    }
    const toTag = parseNameAddr(headerOf(request.headers, 'to') ?? '')?.params.tag;
    // A source off the allow list gets no answer, unless the request is in a dialog of ours
    // (a callee we called hanging up): a scanner learns nothing, not even that SIP is here.
    if (options.acceptsFrom && !options.acceptsFrom(peer.address)) {
      if (!toTag || !dialogs.has(dialogKey(callIdOf(request), toTag))) return;
    }
    if (method === 'REGISTER' && options.onRegister) {
      // Password guessing counts against the same per-source budget as new calls.
      if (!limiter.take(peer.address)) {
        warn('REGISTER rate limit reached', peer);
        send(responseTo(request, 503, { headers: [['retry-after', '5']] }), peer);
        return;
      }
      send(options.onRegister(request, peer), peer);
      return;
    }
    if (method === 'CANCEL') {
      const call = invites.get(branch);
      if (call) call.cancel(request, peer);
      else send(responseTo(request, 481), peer);
      return;
    }
    if (method === 'ACK') {
      const call = toTag
        ? (dialogs.get(dialogKey(callIdOf(request), toTag)) ?? invites.get(branch))
        : invites.get(branch);
      call?.ack(request);
      return;
    }
    if (toTag) {
      const call = dialogs.get(dialogKey(callIdOf(request), toTag));
      if (call) call.inDialog(request, peer);
      else send(responseTo(request, 481), peer);
      return;
    }
    if (method === 'INVITE') {
      const known = invites.get(branch);
      if (known) {
        known.retransmitted();
        return;
      }
      newInvite(request, peer);
      return;
    }
    if (method === 'OPTIONS') {
      send(responseTo(request, 200, { headers: [['allow', ALLOWED_METHODS]] }), peer);
      return;
    }
    // BYE, INFO... outside any dialog of ours.
    send(responseTo(request, method === 'BYE' || method === 'INFO' ? 481 : 405), peer);
  };

  const newInvite = (request: SipRequest, peer: SipPeer) => {
    if (!limiter.take(peer.address)) {
      warn('INVITE rate limit reached', peer);
      send(responseTo(request, 503, { headers: [['retry-after', '5']] }), peer);
      return;
    }
    const unsupported = headersOf(request.headers, 'require').filter((r) => !SUPPORTED.has(r.toLowerCase()));
    if (unsupported.length > 0) {
      send(responseTo(request, 420, { headers: [['unsupported', unsupported.join(', ')]] }), peer);
      return;
    }
    const type = (headerOf(request.headers, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!request.body || type !== 'application/sdp') {
      send(responseTo(request, 488, { reason: 'SDP Offer Required' }), peer);
      return;
    }
    const negotiated = negotiate(request.body);
    if ('status' in negotiated) {
      send(
        responseTo(request, negotiated.status, {
          reason: negotiated.status === 488 ? undefined : negotiated.reason,
        }),
        peer,
      );
      return;
    }
    const call = new ServerCall(request, peer, negotiated, wire);
    invites.set(call.branch, call);
    dialogs.set(dialogKey(call.callId, call.localTag), call);
    call.trying();
    try {
      options.onInvite(call);
    } catch (err) {
      warn(`INVITE handler failed: ${err instanceof Error ? err.message : String(err)}`, peer);
      call.reject(500);
    }
  };

  const onResponse = (response: SipResponse) => {
    const method = cseqOfOr(response);
    if (method === 'INVITE') {
      const branch = branchOf(response);
      const reinvite = reinvites.get(branch);
      if (reinvite) reinvite(response);
      else outgoing.get(branch)?.onResponse(response);
      return;
    }
    if (response.status < 200) return;
    finish(`${branchOf(response)}|${method}`, response.status);
  };

  transport = await openSipTransport(host, options.port ?? 5060, {
    message(message, peer) {
      if (message.kind === 'request') onRequest(message, peer);
      else onResponse(message);
    },
    invalid(error, peer, raw) {
      warn(`unreadable SIP message: ${error.message}`, peer);
      // A request that can be answered gets the error status; anything else is dropped.
      if (/^[A-Z]+ \S+ SIP\/2\.0\r?\n/.test(raw) && !raw.startsWith('ACK')) {
        const via = /^(?:via|v)\s*:.*$/gim;
        const headers =
          raw.match(via)?.map((l) => ['via', l.slice(l.indexOf(':') + 1).trim()] as [string, string]) ?? [];
        if (headers.length === 0) return;
        for (const name of ['from', 'to', 'call-id', 'cseq']) {
          const m = new RegExp(`^(?:${name}|${name === 'call-id' ? 'i' : name[0]})\\s*:(.*)$`, 'im').exec(
            raw,
          );
          if (m) headers.push([name, m[1].trim()]);
        }
        transport.send(
          { kind: 'response', status: error.status, reason: error.message.slice(0, 60), headers, body: '' },
          peer,
        );
      }
    },
  });
  local.port = transport.port;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [k, v] of answered) if (v.expires <= now) answered.delete(k);
    limiter.sweep();
  }, 5000);
  sweep.unref();

  return {
    host,
    port: transport.port,
    publicAddress,
    invite(request) {
      const call = new ClientCall(request, clientWire);
      outgoing.set(call.branch, call);
      return call;
    },
    async close() {
      clearInterval(sweep);
      for (const call of invites.values()) call.dispose();
      for (const call of new Set(outgoing.values())) call.dispose();
      for (const client of clients.values()) for (const t of client.timers) clearTimeout(t);
      clients.clear();
      await transport.close();
    },
  };
}

/** The method of a message's CSeq, '' when it has none readable. */
function cseqOfOr(message: SipMessage): string {
  try {
    return cseqOf(message).method;
  } catch {
    return '';
  }
}

function callIdOf(request: SipRequest): string {
  return headerOf(request.headers, 'call-id') ?? '';
}

function dialogKey(callId: string, localTag: string): string {
  return `${callId}|${localTag}`;
}
