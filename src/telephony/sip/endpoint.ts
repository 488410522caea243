import { Admission, type SipSourceLimits } from './admission.js';
import { Dialogs, toTagOf } from './dialogs.js';
import { ALLOWED_METHODS } from './in-dialog.js';
import { cseqOf, errorResponseOf, type SipRequest, type SipResponse } from './message.js';
import { type LocalAddress, responseTo } from './responses.js';
import { sourceKey } from './source-key.js';
import { realSipTimers, type SipTimers } from './timers.js';
import type { InviteServerTransaction } from './transactions/invite-server.js';
import { type ServerTransaction, TransactionLayer } from './transactions/layer.js';
import type { NonInviteServerTransaction } from './transactions/non-invite-server.js';
import { openSipTransport, type SipPeer } from './transport.js';
import { UacInvite, type UacInviteRequest } from './uac-invite.js';
import { UasInvite } from './uas-invite.js';
import { WarnSampler } from './warn-sampler.js';

/** Options of `openSipEndpoint`. */
export interface SipEndpointOptions {
  /** Address to listen on (UDP and TCP). Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 5060. */
  port?: number;
  /** Address written in Contact, Via and SDP (default `host`, or 127.0.0.1 for a wildcard bind). */
  publicAddress?: string;
  /** Per-source limits: request rate, calls in set-up, TCP connections (see `SipSourceLimits`). */
  limits?: SipSourceLimits;
  /**
   * Whether a source address may send requests outside our dialogs (INVITE, REGISTER,
   * OPTIONS...); those of others are dropped unanswered. Default: any source.
   */
  acceptsFrom?(address: string): boolean;
  /** The time of every SIP timer (default the real clock; a test passes `ManualSipTimers`). */
  timers?: SipTimers;
  /** Bytes of answers kept to replay to retransmitted requests, at most. Default 8 MiB. */
  replayCacheBytes?: number;
  /** The answer to a REGISTER (the registrar); without it, REGISTER gets 405. */
  onRegister?(request: SipRequest, peer: SipPeer): SipResponse;
  /** A new call: answer it, reject it or let it ring. */
  onInvite(call: UasInvite): void;
  /** Bytes that were no SIP message, or a refused request (for logs); no peer for a count of those left out. */
  onWarning?(message: string, peer: SipPeer | undefined): void;
}

/** A listening SIP user agent: answers INVITEs and places its own. */
export interface SipEndpoint {
  readonly host: string;
  readonly port: number;
  readonly publicAddress: string;
  /** Places a call: the INVITE leaves once `start()` is called on the result (after `events` are set). */
  invite(request: UacInviteRequest): UacInvite;
  /** Live transactions and dialogs, and the bytes of answers kept for replay. */
  stats(): { transactions: number; dialogs: number; keptBytes: number };
  close(): Promise<void>;
}

/**
 * The SIP user agent core over its layers: transport (UDP, TCP) -> transactions (every
 * retransmission and timer) -> dialogs -> this core, which routes what the transactions hand
 * up: requests in a dialog to it (481 when there is none), new INVITEs past the admission
 * policy to `onInvite`, REGISTER to the registrar, OPTIONS answered here, CANCELs to their
 * INVITE.
 */
export async function openSipEndpoint(options: SipEndpointOptions): Promise<SipEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const publicAddress =
    options.publicAddress ?? (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host);
  const timers = options.timers ?? realSipTimers;
  const local: LocalAddress = { host: publicAddress, port: 0 };
  const admission = new Admission({
    ...options.limits,
    acceptsFrom: options.acceptsFrom,
    now: () => timers.now(),
  });
  // Refusals and junk a flood sends are logged a few at a time (a count of the rest follows).
  const sampler = new WarnSampler(
    () => timers.now(),
    (message, detail) => options.onWarning?.(message, detail.peer as SipPeer | undefined),
  );
  const warn = (message: string, peer: SipPeer, kind = message) => sampler.warn(kind, message, { peer });
  /** The inbound calls by their INVITE's transaction, for the CANCELs that find it. */
  const inbound = new WeakMap<InviteServerTransaction, UasInvite>();

  /** A request refused without state (over the rate): no transaction, nothing retransmitted. */
  const refuseStateless = (transaction: ServerTransaction, response: SipResponse) => {
    transaction.terminate();
    transactions.sendStateless(response, transaction.peer);
  };

  const onRequest = (transaction: ServerTransaction) => {
    const { request, peer } = transaction;
    const method = request.method;
    try {
      cseqOf(request);
    } catch {
      transaction.respond(responseTo(request, 400, { reason: 'Bad CSeq' }));
      return;
    }
    const inDialog = toTagOf(request) !== undefined;
    const dialog = inDialog ? dialogs.find(request) : undefined;
    // A source off the allow list gets no answer, unless the request is in a dialog of ours
    // (a callee we called hanging up): a scanner learns nothing, not even that SIP is here.
    if (!dialog && !admission.accepts(peer.address)) {
      transaction.terminate();
      return;
    }
    if (method === 'REGISTER' && options.onRegister) {
      // Password guessing counts against the same per-source budget as new calls.
      if (!admission.withinRate(peer.address)) {
        warn('REGISTER rate limit reached', peer);
        refuseStateless(transaction, responseTo(request, 503, { headers: [['retry-after', '5']] }));
        return;
      }
      transaction.respond(options.onRegister(request, peer));
      return;
    }
    if (inDialog) {
      if (dialog) dialog.receive(transaction);
      else transaction.respond(responseTo(request, 481));
      return;
    }
    if (method === 'INVITE') {
      newInvite(transaction as InviteServerTransaction);
      return;
    }
    if (method === 'OPTIONS') {
      // Scans and keep-alive probes count against the source's rate as new calls do.
      if (!admission.withinRate(peer.address)) {
        refuseStateless(transaction, responseTo(request, 503, { headers: [['retry-after', '5']] }));
        return;
      }
      transaction.respond(responseTo(request, 200, { headers: [['allow', ALLOWED_METHODS]] }));
      return;
    }
    // BYE, INFO... outside any dialog of ours.
    transaction.respond(responseTo(request, method === 'BYE' || method === 'INFO' ? 481 : 405));
  };

  const newInvite = (transaction: InviteServerTransaction) => {
    const { request, peer } = transaction;
    if (!admission.withinRate(peer.address)) {
      warn('INVITE rate limit reached', peer);
      refuseStateless(transaction, responseTo(request, 503, { headers: [['retry-after', '5']] }));
      return;
    }
    const checked = admission.checkInvite(request);
    if ('refusal' in checked) {
      transaction.respond(checked.refusal);
      return;
    }
    // One source's calls in set-up (answered but never acknowledged, say) cannot fill the node.
    const release = admission.startSetup(peer.address);
    if (!release) {
      warn('INVITE refused: too many calls of this source in set-up', peer);
      refuseStateless(transaction, responseTo(request, 503, { headers: [['retry-after', '5']] }));
      return;
    }
    const call = new UasInvite(transaction, checked.negotiated, dialogs);
    call.onSettled = release;
    inbound.set(transaction, call);
    call.trying();
    try {
      options.onInvite(call);
    } catch (err) {
      warn(`INVITE handler failed: ${err instanceof Error ? err.message : String(err)}`, peer);
      call.reject(500);
    }
  };

  const onCancel = (transaction: NonInviteServerTransaction, invite: InviteServerTransaction | undefined) => {
    const call = invite && inbound.get(invite);
    if (call) call.cancel(transaction);
    else if (admission.accepts(transaction.peer.address))
      transaction.respond(responseTo(transaction.request, 481));
    else transaction.terminate();
  };

  const onAck = (request: SipRequest) => {
    try {
      cseqOf(request);
    } catch {
      return;
    }
    dialogs.find(request)?.ack(request);
  };

  const transport = await openSipTransport(
    host,
    options.port ?? 5060,
    {
      message: (message, peer) => transactions.receive(message, peer),
      invalid(error, peer, raw) {
        warn(`unreadable SIP message: ${error.message}`, peer, 'unreadable SIP message');
        // A request that can be answered gets the error status; anything else is dropped.
        const response = errorResponseOf(raw, error);
        if (response) transactions.sendStateless(response, peer);
      },
    },
    {
      timers,
      tcp: {
        perSource: options.limits?.tcpPerSource,
        total: options.limits?.tcpTotal,
      },
      sourceOf: (address) => sourceKey(address, options.limits?.v6Prefix),
      onLimit: (reason, peer) => warn(reason, peer),
    },
  );
  const transactions = new TransactionLayer(
    transport,
    timers,
    { request: onRequest, cancel: onCancel, ack: onAck },
    options.replayCacheBytes,
  );
  local.port = transport.port;
  const dialogs = new Dialogs(local, transactions);
  const sweep = setInterval(() => admission.sweep(), 5000);
  sweep.unref();

  return {
    host,
    port: transport.port,
    publicAddress,
    invite(request) {
      return new UacInvite(request, dialogs);
    },
    stats: () => ({
      transactions: transactions.size,
      dialogs: dialogs.size,
      keptBytes: transactions.keptBytes,
    }),
    async close() {
      clearInterval(sweep);
      transactions.close();
      await transport.close();
    },
  };
}
