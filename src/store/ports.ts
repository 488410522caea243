/**
 * Repository ports. Every implementation (memory, SQLite) answers the same synchronous calls,
 * so the engine's record sink and the REST adapters work over either. A record is always
 * read through its owning account: a sid of another account reads as absent.
 */
import type { CallRecord, GatherRecord, NotificationRecord, RecordingRecord } from '../engine/records.js';
import type {
  AccountRecord,
  ApplicationRecord,
  CallQuery,
  GatherQuery,
  NotificationQuery,
  Page,
  RecordingQuery,
} from './types.js';

export interface AccountRepository {
  /** Inserts or replaces the account. */
  put(account: AccountRecord): void;
  get(sid: string): AccountRecord | undefined;
  /** All accounts, oldest first. */
  list(): AccountRecord[];
}

export interface CallRepository {
  /** Inserts the call or replaces it (the engine reports every change). */
  put(call: CallRecord): void;
  /** Inserts or replaces many calls in one transaction. */
  putMany(calls: readonly CallRecord[]): void;
  get(accountSid: string, sid: string): CallRecord | undefined;
  list(query: CallQuery): Page<CallRecord>;
  /** Calls of every account that are not in a terminal status. */
  listLive(): CallRecord[];
  /**
   * A number that changes whenever the account's calls may have changed: any write through this
   * repository that touches them (and, over SQLite, any commit by another connection). Lets a
   * reader keep what it derived from them until then. Optional: without it nothing is kept.
   */
  version?(accountSid: string): number;
}

export interface RecordingRepository {
  /** Stores the record and its complete WAV file. */
  put(recording: RecordingRecord, wav: Uint8Array): void;
  get(accountSid: string, sid: string): RecordingRecord | undefined;
  /** The WAV bytes, or undefined when the recording does not exist for this account. */
  wav(accountSid: string, sid: string): Uint8Array | undefined;
  /** Removes the record and its file; false when there was none. */
  delete(accountSid: string, sid: string): boolean;
  list(query: RecordingQuery): Page<RecordingRecord>;
}

export interface GatherRepository {
  put(gather: GatherRecord): void;
  get(accountSid: string, kind: GatherRecord['kind'], sid: string): GatherRecord | undefined;
  list(query: GatherQuery): Page<GatherRecord>;
}

export interface NotificationRepository {
  put(notification: NotificationRecord): void;
  /** The account's notification; undefined for a sid of another account. */
  get(accountSid: string, sid: string): NotificationRecord | undefined;
  list(query: NotificationQuery): Page<NotificationRecord>;
}

export interface ApplicationRepository {
  put(application: ApplicationRecord): void;
  get(accountSid: string, sid: string): ApplicationRecord | undefined;
}

/** Every repository of one backing store. */
export interface Store {
  readonly accounts: AccountRepository;
  readonly calls: CallRepository;
  readonly recordings: RecordingRepository;
  readonly gathers: GatherRepository;
  readonly notifications: NotificationRepository;
  readonly applications: ApplicationRepository;
  /** Releases files and handles; the store must not be used afterwards. */
  close(): void;
}
