/**
 * Records the store keeps besides the engine's (see `src/engine/records.ts`), and the query
 * shapes its repositories answer. Times are milliseconds since the Unix epoch.
 */
import type { CallDirection, CallStatus, ConferenceStatus } from '../engine/records.js';

/**
 * An account: its sid (`AC` + 32 hex) and its secrets. The auth token itself is never stored,
 * only a keyed hash of it (see `store/credentials.ts`).
 */
export interface AccountRecord {
  sid: string;
  /** `hmac-sha256:<salt>:<digest>` of the auth token (see `hashAuthToken`). */
  authTokenHash: string;
  /** Signs the platform's requests to the account's URLs (`X-Twilio-Signature`). */
  signingKey: string;
  friendlyName: string;
  dateCreated: number;
  dateUpdated: number;
  /** `active` when absent (records written before accounts could be suspended or closed). */
  status?: AccountStatus;
  /** The account that created this one as a sub-account; absent for a top-level account. */
  ownerSid?: string;
}

/**
 * An account's standing: `suspended` accounts are refused (403, code 20005) until made active
 * again; `closed` is final, and the account's live calls are ended when it closes.
 */
export type AccountStatus = 'active' | 'suspended' | 'closed';

/** An application as the REST rename answers it. */
export interface ApplicationRecord {
  sid: string;
  accountSid: string;
  friendlyName: string;
  kind: 'voice' | 'sms' | 'ussd';
  voiceCallerIdLookup: boolean;
  /** Path of the controller that serves its RCML. */
  rcmlUrl: string;
  apiVersion: string;
  dateCreated: number;
  dateUpdated: number;
}

export type SortOrder = 'asc' | 'desc';

/** One page of a list, plus how many items match in all. */
export interface Page<T> {
  items: T[];
  total: number;
  /** Position of the first item in the whole list: the query's `offset`, or the one `afterSid` gave. */
  offset: number;
}

/**
 * Window of a list query: skip `offset` items, return at most `limit`. With `afterSid`, the
 * window starts right after that record in the list's order instead (so a client paging with
 * it neither skips nor repeats records when others are added or removed before it); a sid
 * naming no record of the list leaves `offset` in force.
 */
export interface Window {
  offset: number;
  limit: number;
  afterSid?: string;
}

export type CallSortKey = 'dateCreated' | 'from' | 'to' | 'direction' | 'status' | 'duration';

/** Filters of the Calls list; every one given must hold. Bounds are inclusive. */
export interface CallQuery extends Window {
  accountSid: string;
  to?: string;
  from?: string;
  status?: CallStatus;
  direction?: CallDirection;
  parentCallSid?: string;
  /** `startTime >= startedFrom`. */
  startedFrom?: number;
  /** `endTime <= endedTo`. */
  endedTo?: number;
  sort?: { by: CallSortKey; order: SortOrder };
  /**
   * Stop counting at this many matches: `total` is then `min(matches, countLimit)`. A list
   * whose total is capped anyway (the API's `Limit`) saves counting a large account's calls.
   * Default: count every match.
   */
  countLimit?: number;
}

export type RecordingSortKey = 'dateCreated' | 'duration' | 'callSid';

export interface RecordingQuery extends Window {
  accountSid: string;
  callSid?: string;
  createdFrom?: number;
  createdTo?: number;
  sort?: { by: RecordingSortKey; order: SortOrder };
}

export interface GatherQuery extends Window {
  accountSid: string;
  kind: 'dtmf' | 'speech';
  callSid?: string;
  createdFrom?: number;
  createdTo?: number;
}

/** Filters of the Notifications list, in creation order; bounds are inclusive. */
export interface NotificationQuery extends Window {
  accountSid: string;
  callSid?: string;
  /** 0 = errors, 1 = warnings. */
  log?: 0 | 1;
  createdFrom?: number;
  createdTo?: number;
}

/** Filters of the Conferences list, in creation order; every one given must hold. Bounds are inclusive. */
export interface ConferenceQuery extends Window {
  accountSid: string;
  friendlyName?: string;
  status?: ConferenceStatus;
  createdFrom?: number;
  createdTo?: number;
  updatedFrom?: number;
  updatedTo?: number;
}

/**
 * A client: a softphone user of an account (`client:<login>`), who registers over SIP with its
 * login and password. The password is kept as given: SIP digest authentication needs it (see
 * docs/security.md); the API never answers it.
 */
export interface ClientRecord {
  sid: string;
  accountSid: string;
  apiVersion: string;
  friendlyName: string;
  /** Unique within the account: `[A-Za-z0-9._-]`, 1 to 64 characters. */
  login: string;
  password: string;
  /** Only an `active` client may register. */
  status: ClientStatus;
  voiceUrl?: string;
  voiceMethod: 'GET' | 'POST';
  voiceFallbackUrl?: string;
  voiceFallbackMethod: 'GET' | 'POST';
  voiceApplicationSid?: string;
  dateCreated: number;
  dateUpdated: number;
}

export type ClientStatus = 'active' | 'inactive';

/** Filters of the Clients list, in creation order; every one given must hold. */
export interface ClientQuery extends Window {
  accountSid: string;
  login?: string;
  friendlyName?: string;
}
