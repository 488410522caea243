/**
 * Asynchronous repository ports of the Call Queuing product. Every implementation (memory,
 * SQLite) answers the same calls and passes one contract suite. A number is read through its
 * owning account, except by phone number: provisioning must see every account's numbers to
 * refuse a taken one.
 */
import type { CallQueueEvent, CallQueueNumberRecord, NewCallQueueEvent } from './types.js';

export interface CallQueueNumberRepository {
  /** Inserts or replaces the number (by sid). Another sid with the same phone number is refused. */
  put(number: CallQueueNumberRecord): Promise<void>;
  /** The account's number by sid; undefined for another account's. */
  get(accountSid: string, sid: string): Promise<CallQueueNumberRecord | undefined>;
  /** The number provisioned for `phoneNumber` (E.164), whichever account owns it. */
  findByPhoneNumber(phoneNumber: string): Promise<CallQueueNumberRecord | undefined>;
  /** The account's numbers, oldest first. */
  list(accountSid: string): Promise<CallQueueNumberRecord[]>;
  /** Every account's numbers, oldest first (to restore routing when a server starts). */
  listAll(): Promise<CallQueueNumberRecord[]>;
  /** Removes the account's number; false when it had none with that sid. */
  delete(accountSid: string, sid: string): Promise<boolean>;
}

export interface CallQueueEventRepository {
  /** Records an event; resolves with it, numbered. */
  append(event: NewCallQueueEvent): Promise<CallQueueEvent>;
  /** The events of the account's number (of one call when `callSid` is given), in recording order. */
  list(accountSid: string, numberSid: string, filter?: { callSid?: string }): Promise<CallQueueEvent[]>;
}

/** Both repositories of one backing store. */
export interface CallQueueStore {
  readonly numbers: CallQueueNumberRepository;
  readonly events: CallQueueEventRepository;
  /** Releases files and handles; the store must not be used afterwards. */
  close(): Promise<void>;
}

/** Thrown by `put` when the phone number is already another record's. */
export class PhoneNumberTakenError extends Error {
  constructor(readonly phoneNumber: string) {
    super(`phone number ${phoneNumber} is already provisioned`);
    this.name = 'PhoneNumberTakenError';
  }
}
