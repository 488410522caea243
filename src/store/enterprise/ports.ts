/**
 * Asynchronous repository ports of the enterprise areas. Every implementation (memory, SQLite)
 * answers the same calls; a record is always read through its owning account, so a sid of
 * another account reads as absent.
 */
import type { Page } from '../types.js';
import type {
  AaUserRecord,
  ActivityRecord,
  AnnouncementRecord,
  EnterpriseRecord,
  SearchQuery,
  TaskQueueRecord,
  WorkspaceRecord,
} from './types.js';

/**
 * A write that would break a uniqueness rule: a user's e-mail within its account, a
 * workspace's name within its enterprise, a task queue's name within its workspace.
 */
export class DuplicateRecordError extends Error {
  constructor(
    readonly kind: string,
    readonly key: string,
  ) {
    super(`${kind} ${key} already exists`);
    this.name = 'DuplicateRecordError';
  }
}

/** Reads and writes of one kind of record. */
export interface Repository<R extends { sid: string; accountSid: string }> {
  /** Inserts or replaces the record; rejects with {@link DuplicateRecordError} on a clash. */
  put(record: R): Promise<void>;
  get(accountSid: string, sid: string): Promise<R | undefined>;
  search(query: SearchQuery): Promise<Page<R>>;
}

export interface EnterpriseRepository extends Repository<EnterpriseRecord> {
  /**
   * The enterprise whatever its account: only for telling "another account's" from "unknown"
   * where the API must (error 505).
   */
  ownerOf(sid: string): Promise<string | undefined>;
}

export interface UserRepository extends Repository<AaUserRecord> {
  /**
   * The users with this e-mail (any case), whatever their account: how a user signing in with
   * e-mail and password is found. E-mails are unique within an account, not across accounts.
   */
  withEmail(email: string): Promise<AaUserRecord[]>;
}

export interface AnnouncementRepository extends Repository<AnnouncementRecord> {
  /** Stores the announcement's WAV (replacing any) together with the updated record. */
  putAudio(record: AnnouncementRecord, wav: Uint8Array): Promise<void>;
  /** The WAV of an announcement, whatever its account (sids are unguessable). */
  audio(sid: string): Promise<{ record: AnnouncementRecord; wav: Uint8Array } | undefined>;
}

export interface WorkspaceRepository extends Repository<WorkspaceRecord> {
  /**
   * Stores a new workspace with its activities in one write.
   */
  create(workspace: WorkspaceRecord, activities: readonly ActivityRecord[]): Promise<void>;
  /** Removes the workspace, its activities and its task queues; false when there was none. */
  delete(accountSid: string, sid: string): Promise<boolean>;
}

/** Every repository of the enterprise areas. */
export interface EnterpriseStore {
  readonly enterprises: EnterpriseRepository;
  readonly users: UserRepository;
  readonly announcements: AnnouncementRepository;
  readonly workspaces: WorkspaceRepository;
  readonly activities: Repository<ActivityRecord>;
  readonly taskQueues: Repository<TaskQueueRecord>;
  /** Releases handles; the store must not be used afterwards. */
  close(): Promise<void>;
}
