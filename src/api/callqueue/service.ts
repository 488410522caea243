import type { NumberConfig } from '../../engine/types.js';
import type { CallQueueStore } from '../../store/callqueue/ports.js';
import { PhoneNumberTakenError } from '../../store/callqueue/ports.js';
import type { CallQueueNumberRecord } from '../../store/callqueue/types.js';
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
}

/** Events a provisioned number's status callback subscribes to. */
const CALLBACK_EVENTS = ['ringing', 'answered', 'completed'] as const;

/**
 * Provisioning and routing of Call Queuing numbers. Requests for one phone number run one at a
 * time, so two concurrent provisionings cannot both create it.
 */
export class CallQueueService {
  readonly store: CallQueueStore;
  readonly routing: CallQueueRouting | undefined;
  readonly baseUrl: string;
  private readonly now: () => number;
  private readonly newSid: SidFactory;
  /** Sids of the numbers this service routes: only their calls' queue steps are recorded. */
  private readonly routed = new Set<string>();
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(options: CallQueueServiceOptions) {
    this.store = options.store;
    this.routing = options.routing;
    this.baseUrl = options.baseUrl;
    this.now = options.now;
    this.newSid = options.newSid ?? randomSid;
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
    this.routed.add(number.sid);
  }

  /** Routes every stored number (a server starting over an existing store). */
  async restore(): Promise<number> {
    const all = await this.store.numbers.listAll();
    for (const n of all) this.route(n);
    return all.length;
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
      return number;
    });
  }

  /** Unprovisions the account's number: its calls are no longer routed. False when unknown. */
  async unprovision(accountSid: string, sid: string): Promise<boolean> {
    const number = await this.store.numbers.get(accountSid, sid);
    if (!number) return false;
    return this.serial(number.phoneNumber, async () => {
      if (!(await this.store.numbers.delete(accountSid, sid))) return false;
      for (const form of dialledForms(number.phoneNumber)) this.routing?.unroute(form);
      this.routed.delete(sid);
      return true;
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
