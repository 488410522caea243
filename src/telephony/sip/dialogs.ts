import { parseNameAddr } from './address.js';
import type { Dialog, DialogStack } from './dialog.js';
import { headerOf, type SipRequest } from './message.js';
import type { LocalAddress } from './responses.js';
import type { TransactionLayer } from './transactions/layer.js';

/** The dialog layer: established dialogs by Call-ID and our tag, over the transaction layer. */
export class Dialogs implements DialogStack {
  private readonly byKey = new Map<string, Dialog>();

  constructor(
    readonly local: LocalAddress,
    readonly transactions: TransactionLayer,
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  register(dialog: Dialog): void {
    this.byKey.set(`${dialog.callId}|${dialog.localTag}`, dialog);
  }

  forget(dialog: Dialog): void {
    const key = `${dialog.callId}|${dialog.localTag}`;
    if (this.byKey.get(key) === dialog) this.byKey.delete(key);
  }

  /** The dialog a request belongs to (its Call-ID and To tag), if it is one of ours. */
  find(request: SipRequest): Dialog | undefined {
    const tag = toTagOf(request);
    return tag === undefined
      ? undefined
      : this.byKey.get(`${headerOf(request.headers, 'call-id') ?? ''}|${tag}`);
  }
}

/** The To tag of a request: set on requests within a dialog. */
export function toTagOf(request: SipRequest): string | undefined {
  return parseNameAddr(headerOf(request.headers, 'to') ?? '')?.params.tag;
}
