/**
 * Repository ports. Every implementation (memory, SQLite, PostgreSQL) answers the same
 * asynchronous calls, so the engine's record sink and the REST adapters work over any of them.
 * A record is always read through its owning account: a sid of another account reads as absent.
 * A read that follows a write through the same store sees that write.
 */
import type {
  CallRecord,
  ConferenceRecord,
  GatherRecord,
  NotificationRecord,
  RecordingRecord,
} from '../engine/records.js';
import type {
  AccountRecord,
  ApplicationRecord,
  CallQuery,
  ClientQuery,
  ClientRecord,
  ConferenceQuery,
  GatherQuery,
  NotificationQuery,
  Page,
  RecordingQuery,
} from './types.js';

export interface AccountRepository {
  /** Inserts or replaces the account. */
  put(account: AccountRecord): Promise<void>;
  get(sid: string): Promise<AccountRecord | undefined>;
  /** All accounts, oldest first. */
  list(): Promise<AccountRecord[]>;
}

export interface CallRepository {
  /** Inserts the call or replaces it (the engine reports every change). */
  put(call: CallRecord): Promise<void>;
  /** Inserts or replaces many calls in one transaction. */
  putMany(calls: readonly CallRecord[]): Promise<void>;
  get(accountSid: string, sid: string): Promise<CallRecord | undefined>;
  list(query: CallQuery): Promise<Page<CallRecord>>;
  /** Calls of every account that are not in a terminal status. */
  listLive(): Promise<CallRecord[]>;
  /**
   * A number that changes whenever the account's calls may have changed: any write through this
   * repository that touches them (and, over SQLite, any commit by another connection). Lets a
   * reader keep what it derived from them until then. Optional: without it nothing is kept.
   */
  version?(accountSid: string): Promise<number>;
}

export interface RecordingRepository {
  /** Stores the record and its complete WAV file. */
  put(recording: RecordingRecord, wav: Uint8Array): Promise<void>;
  get(accountSid: string, sid: string): Promise<RecordingRecord | undefined>;
  /** The WAV bytes, or undefined when the recording does not exist for this account. */
  wav(accountSid: string, sid: string): Promise<Uint8Array | undefined>;
  /** Removes the record and its file; false when there was none. */
  delete(accountSid: string, sid: string): Promise<boolean>;
  list(query: RecordingQuery): Promise<Page<RecordingRecord>>;
}

export interface GatherRepository {
  put(gather: GatherRecord): Promise<void>;
  get(accountSid: string, kind: GatherRecord['kind'], sid: string): Promise<GatherRecord | undefined>;
  list(query: GatherQuery): Promise<Page<GatherRecord>>;
}

export interface NotificationRepository {
  put(notification: NotificationRecord): Promise<void>;
  /** The account's notification; undefined for a sid of another account. */
  get(accountSid: string, sid: string): Promise<NotificationRecord | undefined>;
  list(query: NotificationQuery): Promise<Page<NotificationRecord>>;
}

export interface ApplicationRepository {
  put(application: ApplicationRecord): Promise<void>;
  get(accountSid: string, sid: string): Promise<ApplicationRecord | undefined>;
  /** Removes the account's application record; false when it had none. */
  delete(accountSid: string, sid: string): Promise<boolean>;
}

/** Another client of the same account already has the login (refused, nothing written). */
export class DuplicateLoginError extends Error {
  constructor(readonly login: string) {
    super(`another client of the account has the login ${JSON.stringify(login)}`);
    this.name = 'DuplicateLoginError';
  }
}

/** Clients (softphone users) of accounts; a login is unique within its account. */
export interface ClientRepository {
  /** Inserts or replaces the client; rejects with {@link DuplicateLoginError} when the login is taken. */
  put(client: ClientRecord): Promise<void>;
  get(accountSid: string, sid: string): Promise<ClientRecord | undefined>;
  /** The account's clients in creation order. */
  list(query: ClientQuery): Promise<Page<ClientRecord>>;
  /** Removes the account's client; false when it had none. */
  delete(accountSid: string, sid: string): Promise<boolean>;
  /** Every account's clients, oldest first (the SIP registrar's directory loads them). */
  all(): Promise<ClientRecord[]>;
}

/**
 * Conference rooms with their current participants. The engine running a room reports it whole
 * on every change; every node of a cluster reads the same rooms.
 */
export interface ConferenceRepository {
  /** Inserts the room or replaces it. */
  put(room: ConferenceRecord): Promise<void>;
  /** The account's room; undefined for a sid of another account. */
  get(accountSid: string, sid: string): Promise<ConferenceRecord | undefined>;
  /** The account's rooms in creation order. */
  list(query: ConferenceQuery): Promise<Page<ConferenceRecord>>;
  /** Rooms of every account that have not ended (`init` or `in-progress`). */
  listLive(): Promise<ConferenceRecord[]>;
}

/** What one committed batch of writes cost. */
export interface WriteBatch {
  /** Writes committed together. */
  size: number;
  /** Time to commit them, ms. */
  ms: number;
}

/** Whether a store can write now, and what waits. */
export interface WriteState {
  /** False while the store cannot commit (full disk, I/O error, lost connection). */
  writable: boolean;
  /** Writes waiting to be committed. */
  queued: number;
  /** Writes refused since start because the queue was full while the store could not write. */
  dropped: number;
  /** Why the store cannot write, while it cannot. */
  error?: string;
}

/** The write queue of a store with group commit (see `WriteQueue`). */
export interface StoreWrites {
  readonly writable: boolean;
  readonly queued: number;
  state(): WriteState;
  /** Called after each committed batch; returns the way to stop. */
  onBatch(hook: (batch: WriteBatch) => void): () => void;
  /** Called when the store stops or starts writing again; returns the way to stop. */
  onState(hook: (state: WriteState) => void): () => void;
  /** Called at the first write refused because the queue is full, once per outage, with the total refused. */
  onOverflow(hook: (dropped: number) => void): () => void;
}

/** Every repository of one backing store. */
export interface Store {
  readonly accounts: AccountRepository;
  readonly calls: CallRepository;
  readonly recordings: RecordingRepository;
  readonly gathers: GatherRepository;
  readonly notifications: NotificationRepository;
  readonly applications: ApplicationRepository;
  readonly conferences: ConferenceRepository;
  readonly clients: ClientRepository;
  /** Its write queue, when writes are queued and committed in groups (SQLite, PostgreSQL). */
  readonly writes?: StoreWrites;
  /** Releases files and handles; the store must not be used afterwards. */
  close(): Promise<void>;
}
