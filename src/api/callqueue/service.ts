import type { NumberConfig } from '../../engine/types.js';
import type { CallQueueStore } from '../../store/callqueue/ports.js';
import { PhoneNumberTakenError } from '../../store/callqueue/ports.js';
import type { CallQueueNumberRecord } from '../../store/callqueue/types.js';
import { localChanges, type SharedChanges } from '../../store/changes.js';
import { randomSid, type SidFactory } from '../../store/sid.js';
import { ApiError } from '../http/errors.js';
import { dialledForms } from './phone-number.js';
import { callbackUrl, voiceUrlOf } from './record.js';
import type { CallQueueRouting } from './routing.js';

/** Validated fields of `POST /callqueue/provisioning`. */
export interface ProvisionRequest {
  applicationUrl: string;
  applicationUrlMethod: 'GET' | 'POST';
  /** E.164. */
  phoneNumber: string;
  override: boolean;
  byoc: boolean;
}

/** Options of {@link CallQueueService}. */
export interface CallQueueServiceOptions {
  store: CallQueueStore;
  /** The call engine; without it numbers are recorded but route nothing. */
  routing?: CallQueueRouting;
  /** `{base_url}` (origin and path, no trailing slash). */
  baseUrl: string;
  now: () => number;
  newSid?: SidFactory;
  /**
   * In a cluster: tells the other nodes of numbers provisioned, overridden or unprovisioned
   * here, and routes those changed on other nodes. Default: a single node's, no-op.
   */
  changes?: SharedChanges;
}

/** Area of the change notices of Call Queuing numbers (key: the phone number, E.164). */
export const CALLQUEUE_NUMBER_AREA = 'callqueue-number';

/** Events a provisioned number's status callback subscribes to. */
const CALLBACK_EVENTS = ['ringing', 'answered', 'completed'] as const;

/**
 * Provisioning and routing of Call Queuing numbers. Requests for one phone number run one at a
 * time, so two concurrent provisionings cannot both create it. The engine's routing is this
 * node's copy of the stored numbers: in a cluster a change made through another node arrives as
 * a change notice naming the phone number, which is read again from the store.
 */
export class CallQueueService {
  readonly store: CallQueueStore;
  readonly routing: CallQueueRouting | undefined;
  readonly baseUrl: string;
  private readonly now: () => number;
  private readonly newSid: SidFactory;
  /** Sids of the numbers this service routes: only their calls' queue steps are recorded. */
  private readonly routed = new Set<string>();
  /** Phone number -> sid of the number routed for it. */
  private readonly byPhone = new Map<string, string>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly changes: SharedChanges;
  private readonly unsubscribe: () => void;

  constructor(options: CallQueueServiceOptions) {
    this.store = options.store;
    this.routing = options.routing;
    this.baseUrl = options.baseUrl;
    this.now = options.now;
    this.newSid = options.newSid ?? randomSid;
    this.changes = options.changes ?? localChanges;
    this.unsubscribe = this.changes.subscribe({
      changed: (notice) => {
        if (notice.area !== CALLQUEUE_NUMBER_AREA) return;
        return this.serial(notice.key, () => this.reread(notice.key));
      },
      reset: () => this.resync(),
    });
  }

  /** Stops hearing change notices. */
  close(): void {
    this.unsubscribe();
  }

  /** Whether `numberSid` is a number this service provisioned (and still routes). */
  isRouted(numberSid: string): boolean {
    return this.routed.has(numberSid);
  }

  /** The engine routing of a number: its voice URL and the product's status callback. */
  configOf(number: CallQueueNumberRecord): NumberConfig {
    return {
      voiceUrl: voiceUrlOf(number),
      voiceMethod: number.applicationUrlMethod,
      statusCallback: callbackUrl(this.baseUrl),
      statusCallbackMethod: 'POST',
      statusCallbackEvent: CALLBACK_EVENTS,
      sid: number.sid,
      accountSid: number.accountSid,
    };
  }

  private route(number: CallQueueNumberRecord): void {
    const config = this.configOf(number);
    for (const form of dialledForms(number.phoneNumber)) this.routing?.route(form, config);
    const before = this.byPhone.get(number.phoneNumber);
    if (before !== undefined && before !== number.sid) this.routed.delete(before);
    this.byPhone.set(number.phoneNumber, number.sid);
    this.routed.add(number.sid);
  }

  private unroute(phoneNumber: string): void {
    for (const form of dialledForms(phoneNumber)) this.routing?.unroute(form);
    const sid = this.byPhone.get(phoneNumber);
    if (sid !== undefined) this.routed.delete(sid);
    this.byPhone.delete(phoneNumber);
  }

  /** Routes every stored number (a server starting over an existing store). */
  async restore(): Promise<number> {
    const all = await this.store.numbers.listAll();
    for (const n of all) this.route(n);
    return all.length;
  }

  /** Follows a number changed on another node: routed as stored now, or no longer. */
  private async reread(phoneNumber: string): Promise<void> {
    const number = await this.store.numbers.findByPhoneNumber(phoneNumber);
    if (number) this.route(number);
    else if (this.byPhone.has(phoneNumber)) this.unroute(phoneNumber);
  }

  /** Notices may have been missed: every number is read again, each under its phone's turn. */
  private async resync(): Promise<void> {
    const phones = new Set([
      ...this.byPhone.keys(),
      ...(await this.store.numbers.listAll()).map((n) => n.phoneNumber),
    ]);
    await Promise.all([...phones].map((phone) => this.serial(phone, () => this.reread(phone))));
  }

  private serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.chains.set(key, tail);
    void tail.then(() => {
      if (this.chains.get(key) === tail) this.chains.delete(key);
    });
    return run;
  }

  /**
   * Provisions a number for the account, or replaces its settings with `override`. Throws
   * 409 `already-provisioned` (the account's, without override) or `number-unavailable`
   * (another account's; nothing about it is revealed).
   */
  provision(accountSid: string, req: ProvisionRequest): Promise<CallQueueNumberRecord> {
    return this.serial(req.phoneNumber, async () => {
      const existing = await this.store.numbers.findByPhoneNumber(req.phoneNumber);
      if (existing && existing.accountSid !== accountSid) throw unavailable();
      if (existing && !req.override) {
        throw new ApiError(
          409,
          'already-provisioned',
          `phoneNumber: ${req.phoneNumber} is already provisioned (${existing.sid}); send override: true to replace its settings`,
          'phoneNumber',
        );
      }
      const t = this.now();
      const number: CallQueueNumberRecord = {
        sid: existing?.sid ?? this.newSid('PN'),
        accountSid,
        phoneNumber: req.phoneNumber,
        applicationUrl: req.applicationUrl,
        applicationUrlMethod: req.applicationUrlMethod,
        byoc: req.byoc,
        revision: existing ? existing.revision + 1 : 1,
        dateCreated: existing?.dateCreated ?? t,
        dateUpdated: t,
      };
      try {
        await this.store.numbers.put(number);
      } catch (err) {
        // Taken meanwhile by another process sharing the store.
        if (err instanceof PhoneNumberTakenError) throw unavailable();
        throw err;
      }
      this.route(number);
      await this.announce(number);
      return number;
    });
  }

  /** Unprovisions the account's number: its calls are no longer routed. False when unknown. */
  async unprovision(accountSid: string, sid: string): Promise<boolean> {
    const number = await this.store.numbers.get(accountSid, sid);
    if (!number) return false;
    return this.serial(number.phoneNumber, async () => {
      if (!(await this.store.numbers.delete(accountSid, sid))) return false;
      this.unroute(number.phoneNumber);
      await this.announce(number);
      return true;
    });
  }

  private announce(number: CallQueueNumberRecord): Promise<void> {
    return this.changes.publish({
      area: CALLQUEUE_NUMBER_AREA,
      accountSid: number.accountSid,
      key: number.phoneNumber,
    });
  }
}

function unavailable(): ApiError {
  return new ApiError(
    409,
    'number-unavailable',
    'phoneNumber: this number cannot be provisioned',
    'phoneNumber',
  );
}
