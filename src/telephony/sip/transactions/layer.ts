import type { SipMessage, SipRequest, SipResponse } from '../message.js';
import type { SipTimers } from '../timers.js';
import type { SipPeer } from '../transport.js';
import { InviteClientTransaction, type InviteClientUser } from './invite-client.js';
import { InviteServerTransaction } from './invite-server.js';
import { clientKeyOf, serverKeyOf, stampVia } from './matching.js';
import { NonInviteClientTransaction, type NonInviteClientUser } from './non-invite-client.js';
import { NonInviteServerTransaction } from './non-invite-server.js';
import type { TransactionIo } from './timed.js';

export type ServerTransaction = InviteServerTransaction | NonInviteServerTransaction;
export type ClientTransaction = InviteClientTransaction | NonInviteClientTransaction;

/** What the layer above (the user agent core) is handed: requests that start transactions. */
export interface TransactionUser {
  /**
   * A new request (not a retransmission): answer it through `transaction.respond`, or drop it
   * unanswered with `transaction.terminate()`. CANCELs and 2xx ACKs come through the others.
   */
  request(transaction: ServerTransaction): void;
  /**
   * A CANCEL, in its own transaction (the owner answers it 200 or 481), with the INVITE server
   * transaction it cancels when there is one.
   */
  cancel(transaction: NonInviteServerTransaction, invite: InviteServerTransaction | undefined): void;
  /** An ACK that matches no transaction: the ACK of a 2xx, a request of its dialog. */
  ack(request: SipRequest, peer: SipPeer): void;
}

/**
 * The transaction layer (RFC 3261 section 17): it matches every message to its transaction,
 * runs the four state machines on the injected timers and absorbs retransmissions, so that
 * the layer above sees each request once and each final answer once.
 */
export class TransactionLayer {
  private readonly servers = new Map<string, ServerTransaction>();
  private readonly clients = new Map<string, ClientTransaction>();
  /** Answers kept for replay (non-INVITE server transactions in Completed), oldest first. */
  private readonly kept = new Map<object, { bytes: number; transaction: { terminate(): void } }>();
  private keptTotal = 0;

  constructor(
    private readonly transport: { send(message: SipMessage, peer: SipPeer): void },
    readonly timers: SipTimers,
    private readonly user: TransactionUser,
    /** Bytes of answers kept for replay, at most; past it the oldest are let go early. */
    private readonly keptBudget = 8 * 1024 * 1024,
  ) {}

  /** Live transactions (server and client). */
  get size(): number {
    return this.servers.size + this.clients.size;
  }

  /** Bytes of the answers kept for replay now. */
  get keptBytes(): number {
    return this.keptTotal;
  }

  /** Hands a message from the transport to its transaction, or up as a new request. */
  receive(message: SipMessage, peer: SipPeer): void {
    if (message.kind === 'response') {
      const client = this.clients.get(clientKeyOf(message));
      client?.receive(message as SipResponse);
      // A response of no transaction (a 2xx long after its INVITE) is dropped (RFC 6026 7.1).
      return;
    }
    const request = message;
    stampVia(request, peer);
    // Keyed by source too: a copy of another's branch from elsewhere gets no replayed answer
    // (nor its headers) before the allow list has seen it.
    const from = `|${peer.transport}:${peer.address}:${peer.port}`;
    const key = serverKeyOf(request) + from;
    const known = this.servers.get(key);
    if (known) {
      known.receive(request);
      return;
    }
    if (request.method === 'ACK') {
      this.user.ack(request, peer);
      return;
    }
    if (request.method === 'INVITE') {
      const transaction = new InviteServerTransaction(request, peer, this.io(this.servers, key, peer));
      this.servers.set(key, transaction);
      this.user.request(transaction);
      return;
    }
    const transaction = new NonInviteServerTransaction(request, peer, this.io(this.servers, key, peer));
    this.servers.set(key, transaction);
    if (request.method === 'CANCEL') {
      const invite = this.servers.get(serverKeyOf(request, 'INVITE') + from);
      this.user.cancel(transaction, invite instanceof InviteServerTransaction ? invite : undefined);
      return;
    }
    this.user.request(transaction);
  }

  /** Sends an INVITE of ours in a new client transaction. */
  sendInvite(request: SipRequest, peer: SipPeer, user: InviteClientUser): InviteClientTransaction {
    const key = clientKeyOf(request);
    const transaction = new InviteClientTransaction(request, this.io(this.clients, key, peer), user);
    this.clients.set(key, transaction);
    transaction.start();
    return transaction;
  }

  /** Sends a BYE, CANCEL, INFO... of ours in a new client transaction. */
  sendRequest(request: SipRequest, peer: SipPeer, user: NonInviteClientUser): NonInviteClientTransaction {
    const key = clientKeyOf(request);
    const transaction = new NonInviteClientTransaction(request, this.io(this.clients, key, peer), user);
    this.clients.set(key, transaction);
    transaction.start();
    return transaction;
  }

  /** Sends a message outside any transaction (the ACK of a 2xx, a response to an unreadable request). */
  sendStateless(message: SipMessage, peer: SipPeer): void {
    this.transport.send(message, peer);
  }

  /** Ends every transaction and its timers (the endpoint closes). */
  close(): void {
    for (const t of [...this.servers.values(), ...this.clients.values()]) t.terminate();
  }

  /** Sending to `peer`, the timers, and the end that removes the transaction from `map`. */
  private io(map: Map<string, unknown>, key: string, peer: SipPeer): TransactionIo {
    const transport = this.transport;
    return {
      timers: this.timers,
      reliable: peer.transport !== 'udp',
      send: (message) => transport.send(message, peer),
      terminated: (transaction) => {
        // The key may by then be a newer transaction's (the same request sent anew).
        if (map.get(key) === transaction) map.delete(key);
        const kept = this.kept.get(transaction);
        if (kept) {
          this.kept.delete(transaction);
          this.keptTotal -= kept.bytes;
        }
      },
      keeps: (transaction, bytes) => {
        this.kept.set(transaction, { bytes, transaction });
        this.keptTotal += bytes;
        // A flood of large requests keeps no more than the budget: a late retransmission of an
        // old one is then a new request, answered again.
        for (const [, oldest] of this.kept) {
          if (this.keptTotal <= this.keptBudget) break;
          oldest.transaction.terminate();
        }
      },
    };
  }
}
