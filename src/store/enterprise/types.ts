/**
 * Records of the enterprise areas (Auto Attendant and Task Router) and the one search shape
 * their repositories answer. Times are milliseconds since the Unix epoch.
 */
import type { SortOrder } from '../types.js';

/** An enterprise of a platform account: owns users, announcements, workspaces. */
export interface EnterpriseRecord {
  sid: string;
  accountSid: string;
  name: string;
  /** E-mail of the platform account's administrator, shown as `accountEmail` on its records. */
  accountEmail: string;
  /** Whether the enterprise has an Auto Attendant system (announcements need one). */
  autoAttendant: boolean;
  dateCreated: number;
  dateUpdated: number;
}

export type UserRole = 'BG_ADMIN' | 'AA_ADMIN';
export type UserStatus = 'ACTIVE' | 'SUSPENDED' | 'DELETED';

/** An Auto Attendant administrator. */
export interface AaUserRecord {
  sid: string;
  accountSid: string;
  enterpriseSid: string;
  name: string;
  emailId: string;
  role: UserRole;
  status: UserStatus;
  /** `scrypt$N$r$p$salt$hash` (base64 parts), or '' when no password was set. Never rendered. */
  passwordHash: string;
  accountEmail: string;
  dateCreated: number;
  dateUpdated: number;
}

export type AnnouncementType = 'say' | 'play';

/** A text-to-speech or audio announcement. */
export interface AnnouncementRecord {
  sid: string;
  accountSid: string;
  enterpriseSid: string;
  name: string;
  description: string;
  type: AnnouncementType;
  body: string;
  language: string;
  voice: string;
  /** File name of the uploaded WAV (sanitised), '' until one is uploaded. */
  fileName: string;
  accountEmail: string;
  dateCreated: number;
  dateUpdated: number;
}

export type QueueOrder = 'FIFO' | 'LIFO';

/** A Task Router workspace. */
export interface WorkspaceRecord {
  sid: string;
  accountSid: string;
  enterpriseSid: string;
  name: string;
  defaultActivitySid: string;
  timeoutActivitySid: string;
  /** As given; only FIFO is applied. */
  prioritizeQueueOrder: QueueOrder;
  multiTaskEnabled: boolean;
  accountEmail: string;
  dateCreated: number;
  dateUpdated: number;
}

/** A worker activity of a workspace. */
export interface ActivityRecord {
  sid: string;
  accountSid: string;
  enterpriseSid: string;
  workspaceSid: string;
  name: string;
  available: boolean;
  dateCreated: number;
  dateUpdated: number;
}

/** A Task Router task queue. */
export interface TaskQueueRecord {
  sid: string;
  accountSid: string;
  enterpriseSid: string;
  workspaceSid: string;
  name: string;
  assignmentActivitySid: string;
  reservationActivitySid: string;
  targetWorkers: string;
  /** As given; only FIFO is applied. */
  taskOrder: QueueOrder;
  maxReservedWorkers: number;
  accountEmail: string;
  dateCreated: number;
  dateUpdated: number;
}

/** Attributes a search may sort on. */
export type SearchSort = 'name' | 'email' | 'dateCreated';

/**
 * One search over a repository, always within one account. Text filters match when the
 * field contains the text (case-insensitive); the rest are equalities. Ties are broken by
 * creation time, then sid, so pages never overlap.
 */
export interface SearchQuery {
  accountSid: string;
  enterpriseSid?: string;
  /** Workspace of activities and task queues. */
  workspaceSid?: string;
  nameContains?: string;
  emailContains?: string;
  role?: string;
  status?: string;
  /** Creation time bounds, both included. */
  createdFrom?: number;
  createdTo?: number;
  sort?: { by: SearchSort; order: SortOrder };
  offset: number;
  limit: number;
}
