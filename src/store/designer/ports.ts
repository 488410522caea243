/**
 * Asynchronous repository ports of the Visual Designer service. Every call returns a Promise
 * so that a networked store can implement them; memory and SQLite answer at once. Everything
 * is read through the owning account or the application sid it belongs to.
 */
import type { DesignerAppRecord, DesignerMedia, DesignerParameter } from './types.js';

export interface DesignerAppRepository {
  /** Inserts a new application; `duplicate-name` when the account already has one so named. */
  create(app: DesignerAppRecord): Promise<'created' | 'duplicate-name'>;
  /** The account's application; undefined for a sid of another account. */
  get(accountSid: string, sid: string): Promise<DesignerAppRecord | undefined>;
  /** The account's applications, oldest first. */
  list(accountSid: string): Promise<DesignerAppRecord[]>;
  /** Replaces an existing application; `duplicate-name` when its new name is taken. */
  update(app: DesignerAppRecord): Promise<'updated' | 'missing' | 'duplicate-name'>;
  /** Removes the application with its parameters, media and log; false when there was none. */
  delete(accountSid: string, sid: string): Promise<boolean>;
}

export interface DesignerParameterRepository {
  /** The application's parameters in creation order. */
  list(appSid: string): Promise<DesignerParameter[]>;
  /** Adds a parameter; false when the name exists. */
  add(appSid: string, parameter: DesignerParameter): Promise<boolean>;
  /** Replaces a parameter of that name; false when there is none. */
  update(appSid: string, parameter: DesignerParameter): Promise<boolean>;
  delete(appSid: string, name: string): Promise<boolean>;
}

export interface DesignerMediaRepository {
  /** Stores (or replaces) a file. */
  put(appSid: string, media: DesignerMedia): Promise<void>;
  get(appSid: string, filename: string): Promise<DesignerMedia | undefined>;
  /** File names, sorted. */
  list(appSid: string): Promise<string[]>;
  delete(appSid: string, filename: string): Promise<boolean>;
}

export interface DesignerLogRepository {
  /**
   * Appends lines, then drops the oldest lines until the log holds at most `maxBytes` (UTF-8)
   * (the newest line is kept even when it alone is larger).
   */
  append(appSid: string, lines: readonly string[], maxBytes: number): Promise<void>;
  /** Every line, oldest first. */
  read(appSid: string): Promise<string[]>;
  clear(appSid: string): Promise<void>;
}

/** Every repository of the designer service. */
export interface DesignerStore {
  readonly apps: DesignerAppRepository;
  readonly parameters: DesignerParameterRepository;
  readonly media: DesignerMediaRepository;
  readonly logs: DesignerLogRepository;
  close(): Promise<void>;
}
